// A small probe target for the debug-info finder's tests: a static function
// kept out of line, an exported one and a global object.
__attribute__((noinline)) static int helper(int x) { return x * 3; }

__attribute__((noinline)) int exported(int y) { return helper(y) + 1; }

int counter = 5;

int main(int argc, char **argv) {
  (void)argv;
  return exported(argc) + counter;
}
