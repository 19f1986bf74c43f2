/* alloc.c - the judge's own allocations.  Where the judge cannot go on
 * short of memory (a path, a player list read back, a command line), it
 * says "herald: out of memory" and exits with status 2, as herald does
 * (src/cli/memory.c); the exit hook of cmd-judge.c then keeps the
 * incoming message for a rerun and puts a record changed by this run
 * back as it was (herald-judge(1), EXIT STATUS). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge.h"

void judge_out_of_memory(void)
{
	fputs("herald: out of memory\n", stderr);
	exit(2);
}

void *judge_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		judge_out_of_memory();
	return q;
}

char *judge_xstrndup(const char *s, size_t n)
{
	char *p = judge_xrealloc(NULL, n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *judge_xstrdup(const char *s)
{
	return judge_xstrndup(s, strlen(s));
}

char *judge_buf_steal(hg_buf *b)
{
	char *s = hg_buf_failed(b) ? NULL : hg_buf_steal(b);
	if (!s)
		judge_out_of_memory();
	return s;
}
