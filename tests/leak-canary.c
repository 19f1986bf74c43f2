/* leak-canary.c - a program that leaks on purpose, built only with
 * --enable-sanitizers: tests/leaks.test runs it to prove that LeakSanitizer
 * is on in the test environment and fails a run that leaks, so that a clean
 * sanitizer run of the record suite means no leak, not no leak checking. */
#include <stdlib.h>
#include <string.h>

static void *volatile kept;

int main(void)
{
	kept = malloc(4096);
	if (kept)
		memset(kept, 1, 4096);
	kept = NULL;	/* the only pointer to the block is gone */
	return 0;
}
