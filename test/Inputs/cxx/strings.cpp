// Strings and vectors of several sizes for the length and size() tests: a
// std::string of 3, 30 and 300 characters (inside the object, on the heap,
// longer than what a probe copies), a std::string_view of it without its
// first character, and std::vectors of 8-byte and 1-byte elements. The
// probed function prints every size, for the probes to be compared with.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace text {

volatile unsigned long sink;

__attribute__((noinline)) unsigned long
measure(const std::string &s, std::string_view v, const std::vector<long> &nums,
	const std::vector<char> &bytes)
{
	sink = s.size() + v.size() + nums.size() + bytes.size();
	printf("measure s.size=%zu v.size=%zu nums.size=%zu bytes.size=%zu\n",
	       s.size(), v.size(), nums.size(), bytes.size());
	return sink;
}

} // namespace text

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 3;
	std::vector<long> nums;
	std::vector<char> bytes;
	std::string s;
	for (int i = 0; i < n; i++) {
		s.assign(i == 0 ? 3 : i == 1 ? 30 : 300, (char)('a' + i));
		nums.push_back(i);
		nums.push_back(2 * i);
		bytes.push_back('x');
		std::string_view v(s);
		v.remove_prefix(1);
		text::measure(s, v, nums, bytes);
	}
	return 0;
}
