/* cmd-check.c - `herald check`: parse every game of every file, replay
 * each game that parsed against its rules engine, and report.
 *
 * The files are read game by game (the parser streams), so memory holds a
 * bounded number of games whatever the size of the input.  With -j N the
 * games are checked in N threads (check-threads.c) and reported in input
 * order: the report is the same, byte for byte but for the time, as with
 * -j 1.  The threads share one session: the data cache is locked, and the
 * loaded data are only read. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

#define MAX_JOBS 256
#define PIECE_DEFAULT (1024 * 1024)	/* --piece-size */
#define PIECE_MIN 4096
#define PIECE_MAX (1UL << 30)

static int check_option(void *ctx, int opt, const char *arg);

static const struct option longopts[] = {
	{ "jobs", required_argument, NULL, 'j' },
	{ "no-progress", no_argument, NULL, 'P' },
	{ "piece-size", required_argument, NULL, 'S' },
	{ "allow-empty", no_argument, NULL, 'E' },
	{ "results", no_argument, NULL, 'R' },
	{ "from", required_argument, NULL, 'F' },
	{ NULL, 0, NULL, 0 },
};

static cli_spec spec = {
	.name = "check",
	.synopsis = "[OPTION]... FILE...",
	.about =
	N_("Check game records: parse each game of each FILE, replay every action of\n"
	"the main line and of every variation against the game's rules, and compare\n"
	"the declared result with the replayed one.  FILE '-' is standard input; a\n"
	"directory stands for every *.hgn file under it.  Files are read game by\n"
	"game, in memory that does not grow with their size.\n"
	"\n"
	"Diagnostics go to standard output, then a summary line:\n"
	"  N games, L legal, I illegal, U unverified (T.TT s)\n"
	"where an unverified game is legal as far as it could be checked but hides\n"
	"information (a '?') that a rule needed.  The formats json, jsonl, junit and\n"
	"sarif are for programs and CI (see herald-check(1)); csv is the results\n"
	"table for a spreadsheet.  On a terminal, a progress bar on standard error\n"
	"follows long runs.\n"
	"\n"
	"Exit status: 0 when every game is legal (warnings and unverified actions do\n"
	"not fail), 1 when a game is illegal or malformed, 2 on a usage error, when\n"
	"a file cannot be read (the other files are still checked), or when the\n"
	"input holds no game at all (unless --allow-empty).\n"),
	.options_help =
	N_("  -j, --jobs=N           check games in N threads (0: one per processor);\n"
	"                         the report is the same, in the same order\n"
	"      --piece-size=BYTES with -j N, parse a file larger than twice BYTES in\n"
	"                         pieces of about BYTES, in parallel (default\n"
	"                         1048576)\n"
	"      --from=FORMAT      read every FILE as FORMAT: hgn, json, jsonl or yaml\n"
	"                         (default: by its extension, .json, .jsonl, .yaml,\n"
	"                         .yml; else HGN)\n"
	"      --no-progress      never show the progress bar\n"
	"      --allow-empty      an input that holds no game passes (exit 0)\n"
	"      --results          print the results table (a line per game: Event,\n"
	"                         Round, players, declared and replayed result, how\n"
	"                         it ended, verdict) instead of the diagnostics\n"),
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
	case 'E':
		r->allow_empty = 1;
		return 0;
	case 'R':
		r->results = 1;
		return 0;
	case 'F':
		return cli_from_option(&spec, arg, &r->from);
	case 'S': {
		unsigned long n = 0;
		int rc = cli_parse_number(&spec, "--piece-size", arg, PIECE_MIN, PIECE_MAX, &n);
		r->piece_bytes = n;
		return rc;
	}
	}
	return -1;
}

/* An input that holds no game at all (an empty or mistyped directory) is
 * an error of its own, as an unreadable file is: a CI job that checked
 * nothing must not pass.  Malformed text or an unreadable input has
 * already been said and fails the run. */
static void report_no_game(check_run *r, const char *operand)
{
	const cli_summary *sum = cli_report_summary(r->report);
	if (sum->games || sum->io_errors || sum->stray_errors)
		return;
	hg_diags d;
	hg_diags_init(&d);
	hg_pos pos = { operand, 0, 0 };
	hg_diag *dg = hg_diag_add(&d, HG_ERROR, pos, "hgn.empty-input",
				  "the input holds no game");
	hg_diag_note(dg, "--allow-empty lets an input without games pass");
	cli_report_loose(r->report, operand ? operand : "-", &d, 1);
	hg_diags_free(&d);
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
	it->game_tag = game ? cli_xstrdup(game) : NULL;
	it->result_tag = result ? cli_xstrdup(result) : NULL;
	hg_record_free(it->rec);
	it->rec = NULL;
}

void check_replay_item(hg_session *session, item *it)
{
	if (it->d.nerrors) {
		it->status = CLI_ILLEGAL;
		it->syntax_ok = 0;
		cli_facts_probe probe;
		cli_facts_begin(&probe, &it->facts, it->rec);
		release_record(it);
		return;
	}
	hg_check_result res;
	cli_facts_probe probe;
	cli_facts_begin(&probe, &it->facts, it->rec);
	int rc = hg_check_game(session, it->rec, &it->d, &probe.hooks, &res, NULL, NULL);
	if (rc == HG_ENOMEM)
		cli_note_out_of_memory();
	cli_facts_end(&probe, session, res.legal);
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

/* Games are numbered in their file here, in input order, so that pieces
 * of a file read in parallel need not know how many games came before. */
void check_report_item(check_run *r, item *it)
{
	if (r->progress && ((r->common.format == CLI_REPORT_TEXT && it->d.n > 0) ||
			    it->kind == ITEM_LOOSE))
		cli_progress_clear(r->progress);
	if (it->kind == ITEM_LOOSE) {
		cli_report_loose(r->report, it->path, &it->d, it->io);
	} else {
		if (r->games_reported == 0 || it->input != r->rep_input) {
			r->rep_input = it->input;
			r->rep_index = 0;
		}
		r->games_reported++;
		cli_game_result g = {
			.file = it->path,
			.index = ++r->rep_index,
			.line = it->line,
			.game_tag = it->game_tag,
			.result_tag = it->result_tag,
			.status = it->status,
			.syntax_ok = it->syntax_ok,
			.actions = it->actions,
			.diags = &it->d,
			.facts = &it->facts,
		};
		cli_report_game(r->report, &g);
		if (r->progress)
			cli_progress_update(r->progress, r->games_reported, it->bytes_read);
	}
	free(it->game_tag);
	free(it->result_tag);
	cli_facts_free(&it->facts);
	hg_diags_free(&it->d);
	memset(it, 0, sizeof *it);
}

void check_discard_item(item *it)
{
	if (it->rec)
		hg_record_free(it->rec);
	free(it->game_tag);
	free(it->result_tag);
	cli_facts_free(&it->facts);
	hg_diags_free(&it->d);
	memset(it, 0, sizeof *it);
}

/* A new item of operand `input`, with the diagnostics in d (moved). */
static void item_start(item *it, item_kind kind, const char *path, size_t input, hg_diags *d)
{
	memset(it, 0, sizeof *it);
	it->kind = kind;
	it->path = path;
	it->input = input;
	hg_diags_init(&it->d);
	hg_diags_move(&it->d, d);
}

void check_loose_item(item *it, const char *path, size_t input, hg_diags *d, int io)
{
	item_start(it, ITEM_LOOSE, path, input, d);
	it->io = io;
}

void check_game_item(item *it, const char *path, size_t input, hg_game_record *g,
		     hg_diags *d, unsigned long long bytes_read)
{
	item_start(it, ITEM_GAME, path, input, d);
	it->rec = g;
	it->bytes_read = bytes_read;
}

/* ------------------------------------------------------------------------
 * The stream reader: one operand at a time, game by game.  -j 1 replays
 * and reports each game as it is read; -j N reads with it what it does
 * not cut into pieces (check-threads.c).
 * ------------------------------------------------------------------------ */

int check_stream_open(check_run *r, size_t input, item *failed)
{
	const char *path = r->inputs->paths[input];
	r->rd_input = input;
	if (cli_source_open(&r->rd_src, r->inputs, input,
			    cli_informat_pick(r->from, path), 0, &r->rd_d) != 0) {
		cli_source_close(&r->rd_src);
		if (r->rd_d.n == 0)
			return 0;
		check_loose_item(failed, path, input, &r->rd_d, 1);
		return -1;
	}
	r->rd_open = 1;
	return 1;
}

int check_stream_next(check_run *r, item *it)
{
	if (!r->rd_open)
		return 0;
	const char *path = r->inputs->paths[r->rd_input];
	hg_game_record *g;
	int rc = cli_source_next(&r->rd_src, &g, &r->rd_d);
	if (rc <= 0) {
		if (r->rd_src.parser)
			r->bytes_before += hg_parser_offset(r->rd_src.parser);
		cli_source_close(&r->rd_src);
		r->rd_open = 0;
		if (r->rd_d.n == 0)
			return 0;
		check_loose_item(it, path, r->rd_input, &r->rd_d, rc < 0);
		return 1;
	}
	check_game_item(it, path, r->rd_input, g, &r->rd_d,
			r->bytes_before + (r->rd_src.parser ? hg_parser_offset(r->rd_src.parser) : 0));
	return 1;
}

/* -j 1: each game replayed and reported as soon as it is read. */
static void check_in_order(check_run *r, const cli_inputs *in)
{
	r->inputs = in;
	hg_diags_init(&r->rd_d);
	for (size_t i = 0; i < in->n; i++) {
		item it;
		r->files++;
		int rc = check_stream_open(r, i, &it);
		if (rc < 0)
			check_report_item(r, &it);
		if (rc <= 0)
			continue;
		while (check_stream_next(r, &it)) {
			if (it.kind == ITEM_GAME)
				check_replay_item(r->session, &it);
			check_report_item(r, &it);
		}
	}
	hg_diags_free(&r->rd_d);
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
	r.from = -1;
	r.piece_bytes = PIECE_DEFAULT;
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
	if (r.results)
		cli_report_results(r.report);
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

	r.session = cli_session_new(&r.common);
	/* A report in a machine format on the same terminal would be torn by
	 * the bar; text output erases the bar before each diagnostic. */
	int bar = !r.no_progress &&
		  ((r.common.format == CLI_REPORT_TEXT && !r.results) || !isatty(STDOUT_FILENO));
	r.progress = cli_progress_new(bar, total_size(&in), in.n);
	if (r.jobs > 1)
		check_in_threads(&r, &in);
	else
		check_in_order(&r, &in);
	cli_progress_free(r.progress);
	if (!r.allow_empty)
		report_no_game(&r, argc - first == 1 ? argv[first] : NULL);
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
