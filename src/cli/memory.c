/* memory.c - herald's answer to memory that runs out: where the library
 * reports it (libherald(3), ALLOCATION FAILURE) or herald's own allocation
 * fails, "herald: out of memory" and status 2, never output cut short or
 * a game taken for illegal. */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

void cli_out_of_memory(void)
{
	fputs(_("herald: out of memory\n"), stderr);
	exit(CLI_EXIT_USAGE);
}

void *cli_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		cli_out_of_memory();
	return p;
}

void *cli_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		cli_out_of_memory();
	return p;
}

void *cli_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		cli_out_of_memory();
	return q;
}

char *cli_xstrdup(const char *s)
{
	return cli_xstrndup(s, strlen(s));
}

char *cli_xstrndup(const char *s, size_t n)
{
	char *p = cli_xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void cli_buf_check(const hg_buf *b)
{
	if (hg_buf_failed(b))
		cli_out_of_memory();
}

char *cli_buf_steal(hg_buf *b)
{
	char *s = hg_buf_failed(b) ? NULL : hg_buf_steal(b);
	if (!s)
		cli_out_of_memory();
	return s;
}

void cli_diags_check(const hg_diags *d)
{
	if (hg_diags_lost(d))
		cli_out_of_memory();
}

/* Set from any thread (check -j): only ever from 0 to 1. */
static volatile sig_atomic_t out_of_memory_noted;

void cli_note_out_of_memory(void)
{
	out_of_memory_noted = 1;
}

int cli_out_of_memory_noted(void)
{
	return out_of_memory_noted;
}

int cli_ran_out_of_memory(const hg_diags *d)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->v[i].code && strcmp(d->v[i].code, "hg.out-of-memory") == 0)
			return 1;
	return 0;
}
