/* cmd-check.c - `herald check`: parse every game of every file, replay
 * each game that parsed against its rules engine, and report.
 *
 * The files are read game by game (the parser streams), so memory holds a
 * bounded number of games whatever the size of the input.  With -j N, N
 * threads take turns at the one reader, each replays the game it read, and
 * the games are reported in input order: the report is the same, byte for
 * byte but for the time, as with -j 1.  The threads share one session: the
 * data cache is locked, and the loaded data are only read. */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#ifdef HAVE_MALLOC_H
#include <malloc.h>
#endif
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

#define MAX_JOBS 256
#define SLOTS_PER_JOB 32	/* games in flight per thread */
#define READ_BATCH 32		/* games a thread reads, then replays, at a turn */

typedef enum item_kind { ITEM_GAME, ITEM_LOOSE } item_kind;

/* One thing to report, in input order: a game, or diagnostics outside any
 * game (malformed text, an input that cannot be read). */
typedef struct item {
	item_kind kind;
	const char *path;
	size_t index;		/* GAME: its number in the file */
	hg_game_record *rec;	/* GAME, until replayed */
	unsigned line;		/* GAME: what the report needs of the record */
	char *game_tag, *result_tag;
	hg_diags d;		/* parse diagnostics, then the replay's */
	int io;			/* LOOSE: an input/output failure */
	int done;		/* replayed, or nothing to replay (-j N: under the lock) */
	size_t games_read;	/* GAME, -j N: for the progress bar when reported */
	unsigned long long bytes_read;
	cli_game_status status;
	int syntax_ok;
	size_t actions;
} item;

typedef struct check_run {
	cli_common common;
	unsigned long jobs;
	int no_progress;
	hg_session *session;
	cli_report *report;
	cli_progress *progress;
	size_t files, games_read;
	unsigned long long bytes_before;	/* of the files already read */
	struct timespec start;

	/* the threads (jobs > 1): see pool_thread */
	pthread_t *threads;
	pthread_mutex_t lock;
	pthread_cond_t changed;	/* anything below changed */
	item *slots;		/* a ring, in input order */
	size_t nslots;
	size_t produced, printed;	/* counts, not indexes */
	int reading, reporting, exhausted;
	/* the reader, used by one thread at a time (reading) */
	const cli_inputs *inputs;
	size_t rd_next;		/* the next input to open */
	int rd_open;
	cli_source rd_src;
	const char *rd_path;
	size_t rd_index;	/* games read from rd_path */
	hg_diags rd_d;
} check_run;

static int check_option(void *ctx, int opt, const char *arg);

static const struct option longopts[] = {
	{ "jobs", required_argument, NULL, 'j' },
	{ "no-progress", no_argument, NULL, 'P' },
	{ NULL, 0, NULL, 0 },
};

static cli_spec spec = {
	.name = "check",
	.synopsis = "[OPTION]... FILE...",
	.about =
	"Check game records: parse each game of each FILE, replay every action of\n"
	"the main line and of every variation against the game's rules, and compare\n"
	"the declared result with the replayed one.  FILE '-' is standard input; a\n"
	"directory stands for every *.hgn file under it.  Files are read game by\n"
	"game, in memory that does not grow with their size.\n"
	"\n"
	"Diagnostics go to standard output, then a summary line:\n"
	"  N games, L legal, I illegal, U unverified (T.TT s)\n"
	"where an unverified game is legal as far as it could be checked but hides\n"
	"information (a '?') that a rule needed.  The formats json, jsonl, junit and\n"
	"sarif are for programs and CI (see herald-check(1)).  On a terminal, a\n"
	"progress bar on standard error follows long runs.\n"
	"\n"
	"Exit status: 0 when every game is legal (warnings and unverified actions do\n"
	"not fail), 1 when a game is illegal or malformed, 2 on a usage error or when\n"
	"a file cannot be read (the other files are still checked).\n",
	.options_help =
	"  -j, --jobs=N           check games in N threads (0: one per processor);\n"
	"                         the report is the same, in the same order\n"
	"      --no-progress      never show the progress bar\n",
	.formats = cli_report_formats,
	.shortopts = "j:",
	.longopts = longopts,
	.option = check_option,
};

static int check_option(void *ctx, int opt, const char *arg)
{
	check_run *r = ctx;
	switch (opt) {
	case 'j':
		return cli_parse_number(&spec, "--jobs", arg, 0, MAX_JOBS, &r->jobs);
	case 'P':
		r->no_progress = 1;
		return 0;
	}
	return -1;
}

/* ------------------------------------------------------------------------
 * One game
 * ------------------------------------------------------------------------ */

/* Keeps what the report needs of the record and frees it, in the thread
 * that made it: freed by the reporting thread, a record's many blocks went
 * back to another thread's malloc arena, and the threads queued on its
 * lock. */
static void release_record(item *it)
{
	const char *game = hg_record_tag_value(it->rec, "Game");
	const char *result = hg_record_tag_value(it->rec, "Result");
	it->line = it->rec->pos.line;
	it->game_tag = game ? hg_xstrdup(game) : NULL;
	it->result_tag = result ? hg_xstrdup(result) : NULL;
	hg_record_free(it->rec);
	it->rec = NULL;
}

/* Replays a game that parsed; a game with a syntax error is reported, not
 * replayed.  Touches nothing but the item (and the shared session). */
static void replay_item(hg_session *session, item *it)
{
	if (it->d.nerrors) {
		it->status = CLI_ILLEGAL;
		it->syntax_ok = 0;
		release_record(it);
		return;
	}
	hg_check_result res;
	int rc = hg_check_game(session, it->rec, &it->d, NULL, &res, NULL, NULL);
	it->syntax_ok = 1;
	it->actions = res.actions;
	if (rc != 0 || it->d.nerrors)
		it->status = CLI_ILLEGAL;
	else if (it->d.nunverified)
		it->status = CLI_UNVERIFIED;
	else
		it->status = CLI_LEGAL;
	release_record(it);
}

static void report_item(check_run *r, item *it)
{
	if (r->progress && r->common.format == CLI_REPORT_TEXT &&
	    (it->d.n > 0 || it->kind == ITEM_LOOSE))
		cli_progress_clear(r->progress);
	if (it->kind == ITEM_LOOSE) {
		cli_report_loose(r->report, it->path, &it->d, it->io);
	} else {
		cli_game_result g = {
			.file = it->path,
			.index = it->index,
			.line = it->line,
			.game_tag = it->game_tag,
			.result_tag = it->result_tag,
			.status = it->status,
			.syntax_ok = it->syntax_ok,
			.actions = it->actions,
			.diags = &it->d,
		};
		cli_report_game(r->report, &g);
	}
	free(it->game_tag);
	free(it->result_tag);
	hg_diags_free(&it->d);
	memset(it, 0, sizeof *it);
}

/* ------------------------------------------------------------------------
 * Reading.  One reader serves both ways of checking: -j 1 replays and
 * reports each game as it is read; with -j N, N threads take the reader in
 * turn, each reading a batch of games and replaying them itself, so that a
 * game is parsed and replayed where its memory is in cache (handing parsed
 * games from a reading thread to replaying ones cost a quarter more time in
 * moving them between the processors' caches).  Reading stays sequential,
 * so the games and the diagnostics between them are exactly those of -j 1;
 * the games wait in a ring of slots to be reported in input order, by one
 * thread at a time.
 * ------------------------------------------------------------------------ */

/* Diagnostics outside any game, moved out of d into an item. */
static void loose_item(item *it, const char *path, hg_diags *d, int io)
{
	memset(it, 0, sizeof *it);
	it->kind = ITEM_LOOSE;
	it->path = path;
	it->io = io;
	hg_diags_init(&it->d);
	hg_diags_move(&it->d, d);
}

/* Reads the next thing to report, from the file open in the reader or the
 * next one.  0 when the input is exhausted.  Called by one thread at a
 * time (check_run.reading). */
static int read_item(check_run *r, item *it)
{
	for (;;) {
		if (!r->rd_open) {
			if (r->rd_next == r->inputs->n)
				return 0;
			r->rd_path = r->inputs->paths[r->rd_next++];
			r->rd_index = 0;
			r->files++;
			if (cli_source_open(&r->rd_src, r->rd_path, CLI_IN_HGN, 0, &r->rd_d) != 0) {
				cli_source_close(&r->rd_src);
				if (r->rd_d.n == 0)
					continue;
				loose_item(it, r->rd_path, &r->rd_d, 1);
				return 1;
			}
			r->rd_open = 1;
		}
		hg_game_record *g;
		int rc = cli_source_next(&r->rd_src, &g, &r->rd_d);
		if (rc <= 0) {
			if (r->rd_src.parser)
				r->bytes_before += hg_parser_offset(r->rd_src.parser);
			cli_source_close(&r->rd_src);
			r->rd_open = 0;
			if (r->rd_d.n == 0)
				continue;
			loose_item(it, r->rd_path, &r->rd_d, rc < 0);
			return 1;
		}
		memset(it, 0, sizeof *it);
		it->kind = ITEM_GAME;
		it->path = r->rd_path;
		it->index = ++r->rd_index;
		it->rec = g;
		hg_diags_init(&it->d);
		hg_diags_move(&it->d, &r->rd_d);
		it->games_read = ++r->games_read;
		it->bytes_read = r->bytes_before +
				 (r->rd_src.parser ? hg_parser_offset(r->rd_src.parser) : 0);
		return 1;
	}
}

/* Reports an item (and frees it), moving the progress bar past a game. */
static void report_in_turn(check_run *r, item *it)
{
	int game = it->kind == ITEM_GAME;
	size_t games = it->games_read;
	unsigned long long bytes = it->bytes_read;
	report_item(r, it);
	if (game && r->progress)
		cli_progress_update(r->progress, games, bytes);
}

/* -j 1: each game replayed and reported as soon as it is read. */
static void check_in_order(check_run *r, const cli_inputs *in)
{
	r->inputs = in;
	hg_diags_init(&r->rd_d);
	item it;
	while (read_item(r, &it)) {
		if (it.kind == ITEM_GAME)
			replay_item(r->session, &it);
		report_in_turn(r, &it);
	}
	hg_diags_free(&r->rd_d);
}

/* What every thread runs, the main thread included.  Under the lock, in
 * order of preference: report the oldest item when it is ready; read and
 * replay the next game when the reader is free and a slot is; finish when
 * everything is read and reported; else wait for a change. */
static void *pool_thread(void *arg)
{
	check_run *r = arg;
	pthread_mutex_lock(&r->lock);
	for (;;) {
		item *oldest = &r->slots[r->printed % r->nslots];
		if (!r->reporting && r->printed < r->produced && oldest->done) {
			r->reporting = 1;
			pthread_mutex_unlock(&r->lock);
			report_in_turn(r, oldest);	/* frees it and zeroes the slot */
			pthread_mutex_lock(&r->lock);
			r->printed++;
			r->reporting = 0;
			pthread_cond_broadcast(&r->changed);
			continue;
		}
		size_t room = r->nslots - (r->produced - r->printed);
		if (!r->reading && !r->exhausted && room > 0) {
			/* A batch at a time: every hand-over of the reader may
			 * put a thread to sleep and wake it, which costs more than
			 * a small game's replay. */
			size_t want = room < READ_BATCH ? room : READ_BATCH, got = 0;
			item batch[READ_BATCH];
			r->reading = 1;
			pthread_mutex_unlock(&r->lock);
			while (got < want && read_item(r, &batch[got]))
				got++;
			pthread_mutex_lock(&r->lock);
			r->reading = 0;
			if (got < want)
				r->exhausted = 1;
			item *mine[READ_BATCH];
			size_t nmine = 0;
			for (size_t i = 0; i < got; i++) {
				item *slot = &r->slots[r->produced++ % r->nslots];
				*slot = batch[i];
				if (slot->kind == ITEM_GAME)
					mine[nmine++] = slot;
				else
					slot->done = 1;
			}
			pthread_cond_broadcast(&r->changed);
			/* A slot stays put until it is reported, which waits for
			 * done. */
			for (size_t i = 0; i < nmine; i++) {
				pthread_mutex_unlock(&r->lock);
				replay_item(r->session, mine[i]);
				pthread_mutex_lock(&r->lock);
				mine[i]->done = 1;
				if (mine[i] == &r->slots[r->printed % r->nslots])
					pthread_cond_broadcast(&r->changed);
			}
			continue;
		}
		if (r->exhausted && !r->reading && r->printed == r->produced)
			break;
		pthread_cond_wait(&r->changed, &r->lock);
	}
	pthread_mutex_unlock(&r->lock);
	return NULL;
}

static void check_in_threads(check_run *r, const cli_inputs *in)
{
#if defined(HAVE_MALLOPT) && defined(HAVE_MALLOC_H) && defined(M_TRIM_THRESHOLD)
	/* glibc gives every further thread a heap of its own, and hands the
	 * free top of such a heap back to the system once it passes the trim
	 * threshold (128 KiB): a game's record and state, freed after each
	 * game, were then faulted in again for the next one (69,000 page
	 * faults in 100,000 Crusader Kingdoms games, a tenth of the time
	 * -j 2 gained).  What is freed is kept for reuse instead, up to
	 * 16 MiB; memory in use is unchanged. */
	mallopt(M_TRIM_THRESHOLD, 16 * 1024 * 1024);
#endif
	r->inputs = in;
	hg_diags_init(&r->rd_d);
	r->nslots = r->jobs * SLOTS_PER_JOB;
	r->slots = hg_xcalloc(r->nslots, sizeof *r->slots);
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->changed, NULL);
	/* jobs - 1 more threads: the main thread is the last of the N */
	r->threads = hg_xcalloc(r->jobs, sizeof *r->threads);
	for (unsigned long i = 0; i + 1 < r->jobs; i++)
		if (pthread_create(&r->threads[i], NULL, pool_thread, r) != 0) {
			cli_error("check", "cannot start a thread: %s", strerror(errno));
			exit(CLI_EXIT_USAGE);
		}
	pool_thread(r);
	for (unsigned long i = 0; i + 1 < r->jobs; i++)
		pthread_join(r->threads[i], NULL);
	free(r->threads);
	free(r->slots);
	hg_diags_free(&r->rd_d);
	pthread_cond_destroy(&r->changed);
	pthread_mutex_destroy(&r->lock);
}

/* The bytes the regular files hold (0 when a size is unknown: stdin). */
static unsigned long long total_size(const cli_inputs *in)
{
	unsigned long long total = 0;
	for (size_t i = 0; i < in->n; i++) {
		struct stat st;
		if (strcmp(in->paths[i], "-") == 0 || stat(in->paths[i], &st) != 0 ||
		    !S_ISREG(st.st_mode))
			return 0;
		total += (unsigned long long)st.st_size;
	}
	return total;
}

int cli_check_main(int argc, char **argv)
{
	check_run r;
	memset(&r, 0, sizeof r);
	r.jobs = 1;
	spec.ctx = &r;
	clock_gettime(CLOCK_MONOTONIC, &r.start);
	int first;
	int status = cli_parse(&spec, argc, argv, &r.common, &first);
	if (status >= 0)
		return status;
	if (first >= argc)
		return cli_usage_error(&spec, "missing FILE operand ('-' reads standard input)");
	if (r.jobs == 0) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		r.jobs = n < 1 ? 1 : n > MAX_JOBS ? MAX_JOBS : (unsigned long)n;
	}
	int colour_out = cli_use_colour(&r.common, stdout);
	int colour_err = cli_use_colour(&r.common, stderr);

	hg_diags d;
	hg_diags_init(&d);
	cli_inputs in = { 0 };
	cli_inputs_expand(&in, argv + first, argc - first, &d);
	r.report = cli_report_new(r.common.format, stdout, r.common.quiet, colour_out, colour_err);
	/* Operands that do not exist: reported like unreadable files. */
	for (size_t i = 0; i < d.n; i++) {
		hg_diags one;
		hg_diags_init(&one);
		hg_diag *dg = &d.v[i];
		hg_pos pos = { dg->file, dg->line, dg->col };
		hg_diag *copy = hg_diag_add(&one, dg->severity, pos, dg->code, "%s", dg->message);
		for (size_t k = 0; k < dg->nnotes; k++)
			hg_diag_note(copy, "%s", dg->notes[k]);
		cli_report_loose(r.report, dg->file ? dg->file : "-", &one, 1);
		hg_diags_free(&one);
	}
	hg_diags_free(&d);

	r.session = hg_session_new(r.common.data_dir);
	/* A report in a machine format on the same terminal would be torn by
	 * the bar; text output erases the bar before each diagnostic. */
	int bar = !r.no_progress &&
		  (r.common.format == CLI_REPORT_TEXT || !isatty(STDOUT_FILENO));
	r.progress = cli_progress_new(bar, total_size(&in), in.n);
	if (r.jobs > 1)
		check_in_threads(&r, &in);
	else
		check_in_order(&r, &in);
	cli_progress_free(r.progress);
	int write_failed = cli_report_finish(r.report, r.files, cli_elapsed(&r.start)) != 0;
	const cli_summary *sum = cli_report_summary(r.report);
	int io = sum->io_errors > 0, bad = sum->counts[CLI_ILLEGAL] || sum->stray_errors;
	cli_report_free(r.report);
	hg_session_free(r.session);
	cli_inputs_free(&in);

	if (write_failed) {
		cli_error("check", "write error");
		return CLI_EXIT_USAGE;
	}
	if (io)
		return CLI_EXIT_USAGE;
	return bad ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}
