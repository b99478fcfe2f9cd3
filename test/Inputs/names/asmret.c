/* A function written in assembly (no DWARF subprogram) beside C code. */
__asm__(".globl asmret\n.type asmret,@function\nasmret:\n movq $42, %rax\n ret\n.size asmret, .-asmret\n");
long asmret(void);
int main(void) { return (int)asmret(); }
