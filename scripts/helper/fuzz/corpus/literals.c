char a = '\'', b = '"'; const char *s = "x\"y\\"; L"w" u8"v" // c \
 more
/* */ #define X 1
