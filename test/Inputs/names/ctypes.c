/* Qualified typedefs, arrays and pointers to arrays: their C spelling. */
typedef const char cchar;
typedef unsigned char u8;
typedef const u8 cu8;
typedef u8 row[4];
typedef const row crow;
const unsigned char table[3][4] = {{1,2,3,4}};
const cchar *const p1 = "x";
const cu8 *p2;
const crow *p3;
crow arr2[2];
const row *p4;
volatile int sink;
const char *const *pp;
int main(void) { return table[0][1] + p1[0] + (p2 ? 1:0) + (p3?1:0) + arr2[0][1] + (p4?1:0) + (pp?1:0); }
