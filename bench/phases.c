/* phases.c - where one core's time goes when herald checks a corpus:
 * reading the records (lexer, parser, the record built) against replaying
 * them (each game's action reader and rules engine, its dice and shuffles).
 *
 *   make bench-phases && ./bench/phases FILE...
 *
 * Does what `herald check -q -j 1` does, game by game through the public
 * API, and times the two phases apart: a clock read before and after each
 * game's hg_parser_next(), hg_check_game() and hg_record_free() (about 50
 * ns a game, well under 1% of any game's checking).  Prints, per file and
 * for all of them, each phase's seconds, its share and the actions per
 * second it alone would allow: what a faster reader, or a faster engine,
 * could give at most.  Not a test: the figures go into the notes. */
#include "config.h"

#ifdef HAVE_MALLOC_H
#include <malloc.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>

#include "herald.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct phases {
	double read, check, free;	/* seconds */
	unsigned long games, actions;
	double bytes;
} phases;

static void report(const char *name, const phases *p)
{
	double all = p->read + p->check + p->free;
	if (all <= 0)
		all = 1e-9;
	printf("%s: %lu games, %lu actions, %.1f MB, %.3f s\n", name, p->games, p->actions,
	       p->bytes / 1e6, all);
	const struct {
		const char *what;
		double s;
	} row[] = {
		{ "reading", p->read },
		{ "replaying", p->check },
		{ "freeing", p->free },
	};
	for (size_t i = 0; i < sizeof row / sizeof row[0]; i++) {
		double s = row[i].s > 0 ? row[i].s : 1e-9;
		printf("  %-10s %8.3f s %5.1f%%  alone: %7.1f MB/s %12.0f actions/s\n", row[i].what,
		       row[i].s, 100 * row[i].s / all, p->bytes / 1e6 / s, (double)p->actions / s);
	}
}

static int measure(hg_session *s, const char *path, phases *p)
{
	hg_diags d;
	hg_diags_init(&d);
	hg_parser *ps = hg_parser_open_file(path, &d);
	if (!ps) {
		fprintf(stderr, "phases: cannot read %s\n", path);
		hg_diags_free(&d);
		return -1;
	}
	struct stat st;
	if (stat(path, &st) == 0)
		p->bytes += (double)st.st_size;
	for (;;) {
		hg_game_record *rec = NULL;
		double t0 = now();
		int rc = hg_parser_next(ps, &rec, &d);
		double t1 = now();
		p->read += t1 - t0;
		if (rc < 0)
			fprintf(stderr, "phases: cannot read all of %s\n", path);
		if (rc <= 0)
			break;
		hg_check_result res = { 0 };
		hg_check_game(s, rec, &d, NULL, &res, NULL, NULL);
		double t2 = now();
		hg_record_free(rec);
		double t3 = now();
		p->check += t2 - t1;
		p->free += t3 - t2;
		p->games++;
		p->actions += res.actions;
		hg_diags_clear(&d);
	}
	hg_parser_close(ps);
	hg_diags_free(&d);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: phases FILE...\n");
		return 2;
	}
#if defined(HAVE_MALLOPT) && defined(HAVE_MALLOC_H) && defined(M_TRIM_THRESHOLD)
	mallopt(M_TRIM_THRESHOLD, 16 * 1024 * 1024);	/* as herald does (herald.c) */
#endif
	hg_session *s = hg_session_new(NULL);
	phases all = { 0 };
	int status = 0;
	for (int i = 1; i < argc; i++) {
		phases p = { 0 };
		if (measure(s, argv[i], &p) != 0) {
			status = 2;
			continue;
		}
		report(argv[i], &p);
		all.read += p.read;
		all.check += p.check;
		all.free += p.free;
		all.games += p.games;
		all.actions += p.actions;
		all.bytes += p.bytes;
	}
	if (argc > 2)
		report("all files", &all);
	hg_session_free(s);
	return status;
}
