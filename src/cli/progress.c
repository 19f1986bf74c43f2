/* progress.c - a progress bar on standard error while `herald check` reads
 * many games or large files.  It is drawn only on a terminal (never into a
 * log, a pipe or a file, so CI output stays clean), redrawn a few times a
 * second on one line, and erased before anything else is printed. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* Runs smaller than this (in bytes and files) end too soon for a bar. */
#define BIG_INPUT (1024ULL * 1024)
#define MANY_FILES 50
#define UNKNOWN_SIZE_DELAY 1.0	/* seconds before a bar for standard input */
#define REDRAW 0.1		/* seconds between redraws */
#define WIDTH 30		/* characters of the bar itself */

struct cli_progress {
	unsigned long long total;
	struct timespec start;
	double last;		/* seconds since start at the last draw */
	double delay;		/* none before this */
	int drawn;		/* the bar is on the screen */
};

double cli_elapsed(const struct timespec *since)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - since->tv_sec) +
	       (double)(now.tv_nsec - since->tv_nsec) / 1e9;
}

cli_progress *cli_progress_new(int enabled, unsigned long long total_bytes, size_t files)
{
	if (!enabled || !isatty(STDERR_FILENO))
		return NULL;
	const char *term = getenv("TERM");
	if (term && strcmp(term, "dumb") == 0)
		return NULL;
	double delay = 0;
	if (total_bytes == 0)
		delay = UNKNOWN_SIZE_DELAY;
	else if (total_bytes < BIG_INPUT && files < MANY_FILES)
		return NULL;
	cli_progress *p = cli_xcalloc(1, sizeof *p);
	p->total = total_bytes;
	p->delay = delay;
	p->last = -REDRAW;
	clock_gettime(CLOCK_MONOTONIC, &p->start);
	return p;
}

void cli_progress_update(cli_progress *p, size_t games, unsigned long long bytes)
{
	if (!p)
		return;
	double now = cli_elapsed(&p->start);
	if (now < p->delay || now - p->last < REDRAW)
		return;
	p->last = now;
	double mb = (double)bytes / 1e6;
	double rate = now > 0 ? mb / now : 0;
	char line[160];
	if (p->total) {
		unsigned long long done = bytes > p->total ? p->total : bytes;
		int fill = (int)(done * WIDTH / p->total);
		char bar[WIDTH + 1];
		memset(bar, '#', (size_t)fill);
		memset(bar + fill, '-', (size_t)(WIDTH - fill));
		bar[WIDTH] = '\0';
		snprintf(line, sizeof line, "\r[%s] %3d%%  %zu games  %.1f MB/s\033[K", bar,
			 (int)(done * 100 / p->total), games, rate);
	} else {
		snprintf(line, sizeof line, "\r%zu games  %.1f MB  %.1f MB/s\033[K", games, mb,
			 rate);
	}
	fputs(line, stderr);
	fflush(stderr);
	p->drawn = 1;
}

void cli_progress_clear(cli_progress *p)
{
	if (!p || !p->drawn)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	p->drawn = 0;
}

void cli_progress_free(cli_progress *p)
{
	cli_progress_clear(p);
	free(p);
}
