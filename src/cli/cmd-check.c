/* cmd-check.c - `herald check`: parse every game of every file, replay
 * each game that parsed against its rules engine, and report.
 *
 * The files are read game by game (the parser streams), so memory holds a
 * bounded number of games whatever the size of the input.  With -j N the
 * reading stays on the main thread, N - 1 workers replay the games, the
 * main thread replays them too whenever the queue is full (so that N
 * threads share the work, reading included), and it reports them in input
 * order: the report is the same, byte
 * for byte but for the time, as with -j 1.  The workers share one session:
 * the data cache is locked, and the loaded data are only read. */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

#define MAX_JOBS 256
#define SLOTS_PER_JOB 16	/* games in flight per worker */

typedef enum item_kind { ITEM_GAME, ITEM_LOOSE } item_kind;

/* One thing to report, in input order: a game, or diagnostics outside any
 * game (malformed text, an input that cannot be read). */
typedef struct item {
	item_kind kind;
	const char *path;
	size_t index;		/* GAME: its number in the file */
	hg_game_record *rec;	/* GAME */
	hg_diags d;		/* parse diagnostics, then the replay's */
	int io;			/* LOOSE: an input/output failure */
	int done;		/* GAME: replayed (guarded by the pool's lock) */
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

	/* the pool (jobs > 1) */
	pthread_t *threads;
	pthread_mutex_t lock;
	pthread_cond_t work;	/* a game to replay, or the end */
	pthread_cond_t finished;	/* a game replayed */
	item *slots;
	size_t nslots;
	size_t produced, taken, printed;	/* counts, not indexes */
	int closing;
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
	"  -j, --jobs=N           replay games in N threads (0: one per processor);\n"
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

/* Replays a game that parsed; a game with a syntax error is reported, not
 * replayed.  Touches nothing but the item (and the shared session). */
static void replay_item(hg_session *session, item *it)
{
	if (it->d.nerrors) {
		it->status = CLI_ILLEGAL;
		it->syntax_ok = 0;
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
			.line = it->rec->pos.line,
			.game_tag = hg_record_tag_value(it->rec, "Game"),
			.result_tag = hg_record_tag_value(it->rec, "Result"),
			.status = it->status,
			.syntax_ok = it->syntax_ok,
			.actions = it->actions,
			.diags = &it->d,
		};
		cli_report_game(r->report, &g);
	}
	hg_record_free(it->rec);
	hg_diags_free(&it->d);
	memset(it, 0, sizeof *it);
}

/* ------------------------------------------------------------------------
 * The pool: the main thread produces items, workers replay them, and the
 * main thread reports them in order.
 * ------------------------------------------------------------------------ */

static void *worker(void *arg)
{
	check_run *r = arg;
	pthread_mutex_lock(&r->lock);
	for (;;) {
		while (r->taken == r->produced && !r->closing)
			pthread_cond_wait(&r->work, &r->lock);
		if (r->taken == r->produced)
			break;
		item *it = &r->slots[r->taken++ % r->nslots];
		if (it->kind != ITEM_GAME) {
			/* Nothing to replay; from now on it may be reported. */
			pthread_cond_signal(&r->finished);
			continue;
		}
		pthread_mutex_unlock(&r->lock);
		replay_item(r->session, it);
		pthread_mutex_lock(&r->lock);
		it->done = 1;
		pthread_cond_signal(&r->finished);
	}
	pthread_mutex_unlock(&r->lock);
	return NULL;
}

/* The main thread's share: replays the oldest game no worker has taken.
 * 0 when there is none. */
static int help_one(check_run *r)
{
	pthread_mutex_lock(&r->lock);
	if (r->taken == r->produced) {
		pthread_mutex_unlock(&r->lock);
		return 0;
	}
	item *it = &r->slots[r->taken++ % r->nslots];
	pthread_mutex_unlock(&r->lock);
	if (it->kind == ITEM_GAME)
		replay_item(r->session, it);
	pthread_mutex_lock(&r->lock);
	it->done = 1;
	pthread_mutex_unlock(&r->lock);
	return 1;
}

/* Whether the next item to report is ready: a worker has taken it (until
 * then a worker may still look at the slot) and, for a game, replayed it.
 * Called with the lock held. */
static int ready(const check_run *r, const item *it)
{
	return r->printed < r->taken && (it->kind != ITEM_GAME || it->done);
}

/* Reports the items in order, waiting for each, until `until` items are
 * reported. */
static void drain(check_run *r, size_t until)
{
	pthread_mutex_lock(&r->lock);
	while (r->printed < until) {
		item *it = &r->slots[r->printed % r->nslots];
		if (!ready(r, it)) {
			pthread_cond_wait(&r->finished, &r->lock);
			continue;
		}
		pthread_mutex_unlock(&r->lock);
		report_item(r, it);
		pthread_mutex_lock(&r->lock);
		r->printed++;
	}
	pthread_mutex_unlock(&r->lock);
}

/* Reports what is ready without waiting. */
static void drain_ready(check_run *r)
{
	for (;;) {
		pthread_mutex_lock(&r->lock);
		item *it = &r->slots[r->printed % r->nslots];
		int go = r->printed < r->produced && ready(r, it);
		pthread_mutex_unlock(&r->lock);
		if (!go)
			return;
		report_item(r, it);
		pthread_mutex_lock(&r->lock);
		r->printed++;
		pthread_mutex_unlock(&r->lock);
	}
}

static void pool_start(check_run *r)
{
	r->nslots = r->jobs * SLOTS_PER_JOB;
	r->slots = hg_xcalloc(r->nslots, sizeof *r->slots);
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->work, NULL);
	pthread_cond_init(&r->finished, NULL);
	/* jobs - 1 workers: the main thread is the last of the N */
	r->threads = hg_xcalloc(r->jobs, sizeof *r->threads);
	for (unsigned long i = 0; i + 1 < r->jobs; i++)
		if (pthread_create(&r->threads[i], NULL, worker, r) != 0) {
			cli_error("check", "cannot start a thread: %s", strerror(errno));
			exit(CLI_EXIT_USAGE);
		}
}

static void pool_stop(check_run *r)
{
	pthread_mutex_lock(&r->lock);
	r->closing = 1;
	pthread_cond_broadcast(&r->work);
	pthread_mutex_unlock(&r->lock);
	while (help_one(r))
		drain_ready(r);
	drain(r, r->produced);
	for (unsigned long i = 0; i + 1 < r->jobs; i++)
		pthread_join(r->threads[i], NULL);
	free(r->threads);
	free(r->slots);
	pthread_cond_destroy(&r->work);
	pthread_cond_destroy(&r->finished);
	pthread_mutex_destroy(&r->lock);
}

/* Hands an item on: replayed and reported at once with -j 1, else queued
 * for the workers (waiting, and reporting, while the queue is full). */
static void submit(check_run *r, item *it)
{
	if (r->jobs <= 1) {
		if (it->kind == ITEM_GAME)
			replay_item(r->session, it);
		report_item(r, it);
		return;
	}
	drain_ready(r);
	/* A full queue: replay a game here rather than wait for a worker. */
	while (r->produced - r->printed == r->nslots) {
		if (!help_one(r))
			drain(r, r->printed + 1);
		drain_ready(r);
	}
	pthread_mutex_lock(&r->lock);
	r->slots[r->produced % r->nslots] = *it;
	r->produced++;
	pthread_cond_signal(&r->work);
	pthread_mutex_unlock(&r->lock);
	memset(it, 0, sizeof *it);
}

/* ------------------------------------------------------------------------
 * Reading
 * ------------------------------------------------------------------------ */

static void submit_loose(check_run *r, const char *path, hg_diags *d, int io)
{
	if (d->n == 0)
		return;
	item it;
	memset(&it, 0, sizeof it);
	it.kind = ITEM_LOOSE;
	it.path = path;
	it.io = io;
	hg_diags_init(&it.d);
	hg_diags_move(&it.d, d);
	submit(r, &it);
}

static void check_file(check_run *r, const char *path)
{
	hg_diags d;
	hg_diags_init(&d);
	cli_source src;
	r->files++;
	if (cli_source_open(&src, path, CLI_IN_HGN, 0, &d) != 0) {
		submit_loose(r, path, &d, 1);
		cli_source_close(&src);
		hg_diags_free(&d);
		return;
	}
	for (size_t index = 1;; index++) {
		hg_game_record *g;
		int rc = cli_source_next(&src, &g, &d);
		if (rc <= 0) {
			submit_loose(r, path, &d, rc < 0);
			break;
		}
		item it;
		memset(&it, 0, sizeof it);
		it.kind = ITEM_GAME;
		it.path = path;
		it.index = index;
		it.rec = g;
		hg_diags_init(&it.d);
		hg_diags_move(&it.d, &d);
		submit(r, &it);
		r->games_read++;
		if (r->progress && src.parser)
			cli_progress_update(r->progress, r->games_read,
					    r->bytes_before + hg_parser_offset(src.parser));
	}
	if (src.parser)
		r->bytes_before += hg_parser_offset(src.parser);
	cli_source_close(&src);
	hg_diags_free(&d);
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
		pool_start(&r);
	for (size_t i = 0; i < in.n; i++)
		check_file(&r, in.paths[i]);
	if (r.jobs > 1)
		pool_stop(&r);
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
