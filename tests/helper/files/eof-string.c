int f(void) { try_to_freeze(); }
const char *s = "unterminated try_to_freeze()
int g(void) { set_freezable(); }
char c = '