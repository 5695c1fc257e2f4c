int f(void)
#ifdef A
{ if (a) {
#elif B
{ if (b) {
#else
{
#endif
} }
}}}}
#endif
#else
