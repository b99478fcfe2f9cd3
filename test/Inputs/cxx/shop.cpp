// A small C++ program for the C++ name and expression tests: namespaces,
// a class with methods, overloads, a template, inheritance (single and
// multiple), references, std::string and std::vector. Every probed
// function prints what a probe should see, so the records can be compared
// with the program's own output and with gdb at the same addresses.
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace shop {

struct Item {
	int id;
	long weight;
};

struct Base {
	int base_id;
	long base_total;
};

struct Tagged {
	int tag;
};

enum class Mode : int { Idle = 1, Busy = 7 };

// A member of a virtual base is at an offset the vtable holds.
struct Shared {
	int shared_id;
};
struct Account : virtual Shared {
	int balance;
	__attribute__((noinline)) int deposit(int amount);
};

class Cart : public Base, public Tagged {
public:
	long total = 0;
	int count = 0;
	Mode mode = Mode::Idle;
	std::string owner;
	std::vector<int> ids;
	static int carts;

	__attribute__((noinline)) long add(const Item &it, int qty);
	__attribute__((noinline)) long add(int id);
	__attribute__((noinline)) long scaled(long factor) const;
	// A parameter named like a member: the parameter wins, as in C++.
	__attribute__((noinline)) int bump(int count);
	__attribute__((noinline)) void label(const std::string &name,
					     const std::unique_ptr<Item> &best,
					     const std::shared_ptr<Item> &shared,
					     std::string_view view);
};

int Cart::carts = 0;
volatile long sink;

long Cart::add(const Item &it, int qty)
{
	total += it.weight * qty;
	count += qty;
	ids.push_back(it.id);
	sink = total;
	printf("add item id=%d weight=%ld qty=%d total=%ld count=%d tag=%d base_id=%d\n",
	       it.id, it.weight, qty, total, count, tag, base_id);
	return total;
}

long Cart::add(int id)
{
	ids.push_back(id);
	count += 1;
	sink = count;
	printf("add id id=%d count=%d mode=%d carts=%d\n", id, count, (int)mode,
	       carts);
	mode = Mode::Busy;
	return count;
}

long Cart::scaled(long factor) const
{
	sink = total * factor;
	printf("scaled factor=%ld total=%ld count=%d\n", factor, total, count);
	return total * factor;
}

int Account::deposit(int amount)
{
	balance += amount;
	sink = balance;
	printf("deposit amount=%d balance=%d shared_id=%d\n", amount, balance,
	       shared_id);
	return balance;
}

int Cart::bump(int count)
{
	this->count += count;
	sink = this->count;
	printf("bump count=%d this->count=%d\n", count, this->count);
	return this->count;
}

void Cart::label(const std::string &name, const std::unique_ptr<Item> &best,
		 const std::shared_ptr<Item> &shared, std::string_view view)
{
	sink = best->id + shared->weight + ids[1];
	printf("label name=%s owner=%s best->id=%d shared->weight=%ld ids[0]=%d ids[1]=%d\n",
	       name.c_str(), owner.c_str(), best->id, shared->weight, ids[0],
	       ids[1]);
	printf("label view=%.*s\n", (int)view.size(), view.data());
}

// Inlined everywhere: found by its qualified DWARF scope, not a symbol.
static inline __attribute__((always_inline)) long scale(long v, int k)
{
	sink = v;
	return v * k + sink;
}

// A class and an enum by value, for the calling-convention checks.
__attribute__((noinline)) long weigh(Item it, Mode m)
{
	sink = it.weight;
	return it.weight * (long)m;
}

template <typename T>
__attribute__((noinline)) T twice(T v)
{
	sink = (long)v;
	printf("twice v=%ld\n", (long)v);
	return v + v;
}

} // namespace shop

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2;
	shop::Cart cart;
	cart.base_id = 77;
	cart.tag = 5;
	cart.owner = "alice";
	shop::Cart::carts = 1;
	shop::Account acct;
	acct.shared_id = 12;
	acct.balance = 0;
	for (int i = 0; i < n; i++) {
		shop::Item it{40 + i, 100L * (i + 1)};
		cart.add(it, 2 + i);
		cart.add(90 + i);
		long s = cart.scaled(3 + i);
		long t = shop::twice<long>(s) + shop::twice<int>(i + 1);
		printf("main t=%ld\n", t);
		printf("scale=%ld\n", shop::scale(t, i + 2));
		acct.deposit(10 * (i + 1));
		cart.bump(100);
		shop::sink = shop::weigh(shop::Item{1, 2}, shop::Mode::Busy);
		std::unique_ptr<shop::Item> best(new shop::Item{60 + i, 5});
		auto shared = std::make_shared<shop::Item>(shop::Item{70, 900L + i});
		// A view of the first bytes of a literal: not NUL-terminated.
		cart.label(i ? "a label longer than fifteen bytes" : "short", best,
			   shared, std::string_view("alphabet soup").substr(0, 5 + i));
	}
	return 0;
}
