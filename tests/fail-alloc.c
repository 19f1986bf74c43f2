/* fail-alloc.c - a library preloaded (LD_PRELOAD) into herald by
 * tests/enomem-cli.test, so that a command meets memory that runs out at
 * a chosen allocation: with HERALD_TEST_FAIL_ALLOC=N in the environment,
 * the Nth call of malloc, calloc or realloc made by the program returns
 * NULL, and with HERALD_TEST_FAIL_ALLOC_FROM=N every call from the Nth on
 * does; with HERALD_TEST_COUNT_ALLOC=FILE, the number of calls is written
 * to FILE at exit.  Only a program named herald (the libtool wrapper's
 * shell is not) counts.  glibc's own functions call malloc through these
 * too, as glibc lets a program replace its allocator. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void *__libc_malloc(size_t n);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t n);

static int counting;		/* set once the environment is read */
static unsigned long calls, fail_at, fail_from;

__attribute__((constructor)) static void start(void)
{
	const char *name = program_invocation_short_name;
	if (strcmp(name, "herald") != 0 && strcmp(name, "lt-herald") != 0)
		return;
	const char *at = getenv("HERALD_TEST_FAIL_ALLOC");
	const char *from = getenv("HERALD_TEST_FAIL_ALLOC_FROM");
	fail_at = at ? strtoul(at, NULL, 10) : 0;
	fail_from = from ? strtoul(from, NULL, 10) : 0;
	counting = 1;
}

__attribute__((destructor)) static void finish(void)
{
	const char *path = getenv("HERALD_TEST_COUNT_ALLOC");
	if (!counting || !path)
		return;
	char line[32];
	int n = snprintf(line, sizeof line, "%lu\n", calls);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd >= 0) {
		if (write(fd, line, (size_t)n) != n)
			(void)0;	/* the test finds the count missing */
		close(fd);
	}
}

/* Is this call to return NULL? */
static int refused(void)
{
	if (!counting)
		return 0;
	calls++;
	if (calls == fail_at || (fail_from && calls >= fail_from)) {
		errno = ENOMEM;
		return 1;
	}
	return 0;
}

void *malloc(size_t n)
{
	return refused() ? NULL : __libc_malloc(n);
}

void *calloc(size_t n, size_t size)
{
	return refused() ? NULL : __libc_calloc(n, size);
}

void *realloc(void *p, size_t n)
{
	return refused() ? NULL : __libc_realloc(p, n);
}
