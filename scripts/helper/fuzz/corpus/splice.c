set_free\
zable(); try_to_\
freeze(); "str\
ing" \