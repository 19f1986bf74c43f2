/* cmd-select.c - `herald select`: write the games of an archive that meet
 * the criteria (select.h), in input order, as HGN, JSON, JSON Lines or
 * YAML.
 *
 * The inputs are read game by game, in rounds of a bounded number of
 * games: with -j N, N threads evaluate a round's games (parsed by the one
 * reader) and the main thread then writes them in input order, so that the
 * output is the same as with -j 1 and memory holds at most one round.
 * Duplicates (--unique) are decided in that ordered pass: the first of
 * identical games is the one kept, whatever the threads. */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "select.h"

#define MAX_JOBS 256
#define ROUND_PER_JOB 32	/* games per thread in a round */

typedef enum out_format { TO_HGN, TO_JSON, TO_JSONL, TO_YAML } out_format;
static const char *const out_formats[] = { "hgn", "json", "jsonl", "yaml", NULL };

/* Where selected (or dropped) games go: standard output, or a file
 * written atomically. */
typedef struct sink {
	const char *path;	/* NULL: standard output */
	FILE *fp;
	cli_atomic at;
	size_t written;
	int failed;
} sink;

typedef enum item_kind { ITEM_GAME, ITEM_LOOSE } item_kind;

/* One game read (or what was read outside any game), with what became of it. */
typedef struct sel_item {
	item_kind kind;
	const char *path;	/* the input it came from */
	unsigned line;		/* GAME: where it begins */
	int io;			/* LOOSE: an input could not be read */
	hg_game_record *rec;	/* until evaluated */
	hg_diags d;		/* what reading it found */
	int malformed;		/* GAME: an error in reading it: skipped */
	int selected;
	select_outcome out;
	hg_buf text;		/* a selected game in the output format */
} sel_item;

typedef struct select_run {
	cli_common common;
	select_spec spec;
	int to;
	unsigned long jobs;
	int count_only;
	const char *dup_path;
	int usage_failed;	/* an option's value was refused (already said) */
	hg_session *session;
	select_scratch **scratch;	/* one per thread */
	int colour_err;
	hg_buf json_before, json_after;	/* TO_JSON: the document around the games */
	/* the reader */
	const cli_inputs *inputs;
	size_t next_input;
	int open;
	cli_source src;
	hg_diags rd_d;
	/* the round */
	sel_item *items;
	size_t nitems;
	/* the ordered pass */
	select_seen *seen;
	size_t selected, dropped;
	int bad, io;
	sink out, dup;
} select_run;

static cli_spec spec;

enum {
	OPT_TAG = 0x100, OPT_PLAYER, OPT_GAME, OPT_VARIANT, OPT_RESULT, OPT_DATE_FROM,
	OPT_DATE_TO, OPT_CRITERIA, OPT_LEGAL, OPT_ILLEGAL, OPT_UNVERIFIED, OPT_CODE,
	OPT_ACTION, OPT_SEAT, OPT_POSITION, OPT_UNIQUE, OPT_DUPLICATES, OPT_COUNT, OPT_INVERT
};

static const struct option longopts[] = {
	{ "tag", required_argument, NULL, OPT_TAG },
	{ "player", required_argument, NULL, OPT_PLAYER },
	{ "game", required_argument, NULL, OPT_GAME },
	{ "variant", required_argument, NULL, OPT_VARIANT },
	{ "result", required_argument, NULL, OPT_RESULT },
	{ "date-from", required_argument, NULL, OPT_DATE_FROM },
	{ "date-to", required_argument, NULL, OPT_DATE_TO },
	{ "criteria", required_argument, NULL, OPT_CRITERIA },
	{ "legal", no_argument, NULL, OPT_LEGAL },
	{ "illegal", no_argument, NULL, OPT_ILLEGAL },
	{ "unverified", no_argument, NULL, OPT_UNVERIFIED },
	{ "code", required_argument, NULL, OPT_CODE },
	{ "action", required_argument, NULL, OPT_ACTION },
	{ "seat", required_argument, NULL, OPT_SEAT },
	{ "position", required_argument, NULL, OPT_POSITION },
	{ "unique", no_argument, NULL, OPT_UNIQUE },
	{ "duplicates", required_argument, NULL, OPT_DUPLICATES },
	{ "count", no_argument, NULL, OPT_COUNT },
	{ "invert", no_argument, NULL, OPT_INVERT },
	{ "to", required_argument, NULL, 't' },
	{ "jobs", required_argument, NULL, 'j' },
	{ NULL, 0, NULL, 0 },
};

/* The option's name, for the criteria select_criterion_parse() reads. */
static const char *criterion_name(int opt)
{
	for (size_t i = 0; longopts[i].name; i++)
		if (longopts[i].val == opt)
			return longopts[i].name;
	return "";
}

static int select_option(void *ctx, int opt, const char *arg)
{
	select_run *r = ctx;
	select_spec *s = &r->spec;
	hg_buf err;
	hg_buf_init(&err);
	int rc = 0;
	switch (opt) {
	case OPT_TAG: case OPT_PLAYER: case OPT_GAME: case OPT_VARIANT: case OPT_RESULT:
	case OPT_DATE_FROM: case OPT_DATE_TO: {
		select_tag_crit c;
		rc = select_criterion_parse(&c, criterion_name(opt), arg, &err);
		if (rc == 0)
			select_tag_list_push(&s->all, &c);
		break;
	}
	case OPT_CRITERIA:
		if (s->has_any) {
			hg_buf_puts(&err, "--criteria may be given once");
			rc = -1;
		} else {
			rc = select_criteria_file(s, arg, &err);
		}
		break;
	case OPT_LEGAL:
		s->verdicts |= 1u << CLI_LEGAL;
		break;
	case OPT_ILLEGAL:
		s->verdicts |= 1u << CLI_ILLEGAL;
		break;
	case OPT_UNVERIFIED:
		s->verdicts |= 1u << CLI_UNVERIFIED;
		break;
	case OPT_CODE:
		if (!*arg) {
			hg_buf_puts(&err, "--code needs a diagnostic code (e.g. 'koc.sector-full')");
			rc = -1;
			break;
		}
		s->codes = cli_xrealloc(s->codes, (s->ncodes + 1) * sizeof *s->codes);
		s->codes[s->ncodes++] = (char *)arg;
		break;
	case OPT_ACTION: {
		select_regex *re = select_regex_new(arg, &err);
		if (!re) {
			hg_buf tmp;
			hg_buf_init(&tmp);
			hg_buf_printf(&tmp, "--action: %s", err.data);
			hg_buf_free(&err);
			err = tmp;
			rc = -1;
			break;
		}
		s->actions = cli_xrealloc(s->actions, (s->nactions + 1) * sizeof *s->actions);
		s->actions[s->nactions++] = re;
		break;
	}
	case OPT_SEAT:
		if (s->seat || !*arg) {
			hg_buf_puts(&err, s->seat ? "--seat may be given once" : "--seat needs a seat");
			rc = -1;
		}
		s->seat = (char *)arg;
		break;
	case OPT_POSITION: {
		select_position p;
		rc = select_position_parse(&p, arg, &err);
		if (rc == 0) {
			s->positions = cli_xrealloc(s->positions, (s->npositions + 1) * sizeof *s->positions);
			s->positions[s->npositions++] = p;
		}
		break;
	}
	case OPT_UNIQUE:
		s->unique = 1;
		break;
	case OPT_DUPLICATES:
		r->dup_path = arg;
		break;
	case OPT_COUNT:
		r->count_only = 1;
		break;
	case OPT_INVERT:
		s->invert = 1;
		break;
	case 't':
		r->to = -1;
		for (int i = 0; out_formats[i]; i++)
			if (strcmp(arg, out_formats[i]) == 0)
				r->to = i;
		if (r->to < 0) {
			hg_buf_printf(&err, "invalid output format '%s' (valid: 'hgn', 'json', 'jsonl', 'yaml')",
				      arg);
			rc = -1;
		}
		break;
	case 'j':
		rc = cli_parse_number(&spec, "--jobs", arg, 0, MAX_JOBS, &r->jobs);
		if (rc != 0)
			r->usage_failed = 1;
		hg_buf_free(&err);
		return rc;
	default:
		rc = -1;
	}
	if (rc != 0) {
		cli_usage_error(&spec, "%s", err.data ? err.data : "invalid option");
		r->usage_failed = 1;
	}
	hg_buf_free(&err);
	return rc;
}

static cli_spec spec = {
	.name = "select",
	.synopsis = "[OPTION]... FILE...",
	.about =
	N_("Write the games of the FILEs that meet every criterion given, in input\n"
	"order, as HGN (or --to json, jsonl, yaml).  FILE '-' is standard input; a\n"
	"directory stands for every *.hgn file under it; .json, .yaml and .yml files\n"
	"are read as such.  Files are read game by game, in memory that does not\n"
	"grow with their size.  A regular expression (PCRE2) must match the whole\n"
	"value, compared with case and accents folded away ('lider' finds 'Líder').\n"
	"A malformed game is reported on standard error and never selected.\n"
	"\n"
	"Exit status: 0 when every game was read, 1 when a game was malformed (or a\n"
	"regular expression gave up at its match limit), 2 on a usage error or when\n"
	"a file cannot be read or written.\n"),
	.options_help =
	N_("      --tag=NAME=REGEX   the tag NAME's value matches REGEX (repeatable)\n"
	"      --player=REGEX     a player's name matches REGEX\n"
	"      --game=NAME        the game is NAME (id or alias)\n"
	"      --variant=REGEX    the Variant tag matches REGEX\n"
	"      --result=REGEX     the Result tag matches REGEX\n"
	"      --date-from=DATE   played on or after DATE (YYYY[.MM[.DD]])\n"
	"      --date-to=DATE     played on or before DATE\n"
	"      --criteria=FILE    one of FILE's criteria holds (one a line:\n"
	"                         'OPTION ARGUMENT', e.g. 'player ana.*')\n"
	"      --legal, --illegal, --unverified\n"
	"                         the game's verdict is one of these\n"
	"      --code=CODE        the game has a diagnostic CODE (repeatable: any)\n"
	"      --action=REGEX     an action's canonical body matches REGEX\n"
	"                         (main line; repeatable: each by some action)\n"
	"      --seat=SEAT        only SEAT's actions count for --action\n"
	"      --position=EXPR    after some action of the main line, the position\n"
	"                         holds 'FACT [ARG] OP VALUE' (repeatable: all at\n"
	"                         once; e.g. 'owner homs = templarios')\n"
	"      --unique           drop games whose actions repeat an earlier game's\n"
	"      --duplicates=FILE  write the dropped games to FILE\n"
	"      --invert           select the games that do not meet the criteria\n"
	"      --count            print only the number of games selected\n"
	"  -t, --to=FORMAT        write hgn (default), json, jsonl or yaml\n"
	"  -j, --jobs=N           evaluate games in N threads (0: one per\n"
	"                         processor); the output is the same\n"),
	.shortopts = "t:j:",
	.longopts = longopts,
	.option = select_option,
};

/* ------------------------------------------------------------------------
 * Output
 * ------------------------------------------------------------------------ */

/* The game alone in the output format (the separators are the sink's). */
static void render(const select_run *r, hg_game_record *g, hg_buf *text)
{
	switch ((out_format)r->to) {
	case TO_HGN:
		cli_wrote(hg_write_hgn(g, text));
		if (text->len && text->data[text->len - 1] != '\n')
			hg_buf_putc(text, '\n');
		break;
	case TO_JSONL:
		cli_wrote(hg_write_json_game(g, text, 0));
		hg_buf_putc(text, '\n');
		break;
	case TO_JSON: {
		/* laid out as jansson lays out the whole document (each game
		 * indented under "games"), as `herald convert` does */
		hg_buf one;
		hg_buf_init(&one);
		cli_wrote(hg_write_json_game(g, &one, 1));
		for (size_t i = 0; i < one.len; i++) {
			hg_buf_putc(text, one.data[i]);
			if (one.data[i] == '\n')
				hg_buf_puts(text, "    ");
		}
		hg_buf_free(&one);
		break;
	}
	case TO_YAML:
		cli_wrote(hg_write_yaml(&g, 1, text));
		break;
	}
}

static void sink_put(sink *k, const char *data, size_t len)
{
	if (k->failed || len == 0)
		return;
	if (cli_put_text(k->fp, data, len, 1) != 0) {
		if (k->path)
			cli_error("select", "cannot write '%s': %s", k->path, strerror(errno));
		k->failed = 1;
	}
}

static void sink_game(select_run *r, sink *k, const hg_buf *text)
{
	switch ((out_format)r->to) {
	case TO_HGN:
		if (k->written)
			sink_put(k, "\n", 1);
		sink_put(k, text->data, text->len);
		break;
	case TO_JSONL:
		sink_put(k, text->data, text->len);
		break;
	case TO_JSON:
		if (k->written == 0)
			sink_put(k, r->json_before.data, r->json_before.len);
		sink_put(k, k->written ? ",\n    " : "\n    ", k->written ? 6 : 5);
		sink_put(k, text->data, text->len);
		break;
	case TO_YAML: {
		/* every game's document begins the same: kept once */
		const char *body = text->data;
		const char *games = k->written ? strstr(text->data, "\ngames:\n") : NULL;
		if (games)
			body = games + strlen("\ngames:\n");
		sink_put(k, body, text->len - (size_t)(body - text->data));
		break;
	}
	}
	k->written++;
}

/* What closes the document (an empty one when no game was written). */
static void sink_finish(select_run *r, sink *k)
{
	if (r->to == TO_JSON) {
		if (k->written == 0)
			sink_put(k, r->json_before.data, r->json_before.len);
		else
			sink_put(k, "\n  ", 3);
		sink_put(k, r->json_after.data, r->json_after.len);
	} else if (r->to == TO_YAML && k->written == 0) {
		hg_buf empty;
		hg_buf_init(&empty);
		cli_wrote(hg_write_yaml(NULL, 0, &empty));
		sink_put(k, empty.data, empty.len);
		hg_buf_free(&empty);
	}
	if (k->fp && !k->failed && fflush(k->fp) != 0) {
		if (k->path)
			cli_error("select", "cannot write '%s': %s", k->path, strerror(errno));
		k->failed = 1;
	}
}

/* The JSON document around the games: hg_write_json of none, cut at "[]". */
static void json_frame(hg_buf *before, hg_buf *after)
{
	hg_buf doc;
	hg_buf_init(&doc);
	cli_wrote(hg_write_json(NULL, 0, &doc));
	const char *open = strstr(doc.data, "[]");
	hg_buf_putn(before, doc.data, (size_t)(open - doc.data) + 1);
	hg_buf_puts(after, open + 1);
	hg_buf_free(&doc);
}

/* ------------------------------------------------------------------------
 * Reading
 * ------------------------------------------------------------------------ */

static void item_init(sel_item *it, item_kind kind, hg_diags *d)
{
	memset(it, 0, sizeof *it);
	it->kind = kind;
	hg_diags_init(&it->d);
	hg_diags_move(&it->d, d);
	hg_buf_init(&it->text);
}

/* The next item of the inputs: 1, or 0 when all is read. */
static int read_item(select_run *r, sel_item *it)
{
	for (;;) {
		if (!r->open) {
			if (r->next_input == r->inputs->n)
				return 0;
			size_t input = r->next_input++;
			const char *path = r->inputs->paths[input];
			if (cli_source_open(&r->src, r->inputs, input, cli_informat_of(path), 0,
					    &r->rd_d) != 0) {
				cli_source_close(&r->src);
				if (r->rd_d.n == 0)
					continue;
				item_init(it, ITEM_LOOSE, &r->rd_d);
				it->io = 1;
				return 1;
			}
			r->open = 1;
		}
		hg_game_record *g;
		int rc = cli_source_next(&r->src, &g, &r->rd_d);
		if (rc <= 0) {
			cli_source_close(&r->src);
			r->open = 0;
			if (r->rd_d.n == 0)
				continue;
			item_init(it, ITEM_LOOSE, &r->rd_d);
			it->io = rc < 0;
			return 1;
		}
		item_init(it, ITEM_GAME, &r->rd_d);
		it->path = r->src.path;
		it->line = g->pos.line;
		it->rec = g;
		return 1;
	}
}

/* ------------------------------------------------------------------------
 * Evaluating a round
 * ------------------------------------------------------------------------ */

static void evaluate(select_run *r, sel_item *it, select_scratch *sc)
{
	if (it->kind != ITEM_GAME)
		return;
	if (it->d.nerrors) {
		it->malformed = 1;
	} else {
		hg_diags replay;	/* the verdict's: `herald check` reports them */
		hg_diags_init(&replay);
		/* with the warnings read with the game (hgn.glued-game), which
		 * check reports too and --code may name */
		hg_diags_move(&replay, &it->d);
		select_game(&r->spec, r->session, it->rec, sc, &replay, &it->out);
		hg_diags_free(&replay);
		it->selected = !it->out.limit && (it->out.matched != r->spec.invert);
		if (it->selected && (!r->count_only || r->dup_path))
			render(r, it->rec, &it->text);
	}
	hg_record_free(it->rec);
	it->rec = NULL;
}

typedef struct worker {
	select_run *r;
	size_t first;		/* evaluates items first, first + stride, ... */
	size_t stride;
} worker;

static void *work(void *arg)
{
	worker *w = arg;
	for (size_t i = w->first; i < w->r->nitems; i += w->stride)
		evaluate(w->r, &w->r->items[i], w->r->scratch[w->first]);
	return NULL;
}

static void evaluate_round(select_run *r)
{
	size_t n = r->jobs < r->nitems ? r->jobs : r->nitems;
	worker w[MAX_JOBS];
	pthread_t t[MAX_JOBS];
	size_t started = 1;
	for (size_t i = 0; i < n; i++)
		w[i] = (worker){ r, i, n };
	for (size_t i = 1; i < n; i++) {
		if (pthread_create(&t[i], NULL, work, &w[i]) != 0)
			break;
		started++;
	}
	/* the main thread takes its share, and any a thread could not start for */
	for (size_t i = started; i < n; i++)
		work(&w[i]);
	work(&w[0]);
	for (size_t i = 1; i < started; i++)
		pthread_join(t[i], NULL);
}

/* ------------------------------------------------------------------------
 * The ordered pass
 * ------------------------------------------------------------------------ */

static void report_limit(select_run *r, const sel_item *it)
{
	hg_diags d;
	hg_diags_init(&d);
	hg_diag_add(&d, HG_ERROR, (hg_pos){ it->path, it->line, 1 }, "select.match-limit",
		    "a regular expression gave up at PCRE2's match limit on this game; it is not selected");
	cli_print_diags(stderr, &d, r->colour_err, 0);
	hg_diags_free(&d);
}

static void emit(select_run *r, sel_item *it)
{
	if (it->kind == ITEM_LOOSE || it->malformed) {
		cli_print_diags(stderr, &it->d, r->colour_err, r->common.quiet);
		if (it->io)
			r->io = 1;
		else if (it->d.nerrors)
			r->bad = 1;
	} else if (it->out.limit) {
		report_limit(r, it);
		r->bad = 1;
	} else if (it->selected) {
		if (r->spec.unique && !select_seen_add(r->seen, it->out.hash)) {
			r->dropped++;
			if (r->dup_path)
				sink_game(r, &r->dup, &it->text);
		} else {
			r->selected++;
			if (!r->count_only)
				sink_game(r, &r->out, &it->text);
		}
	}
	hg_diags_free(&it->d);
	hg_buf_free(&it->text);
}

static void run_rounds(select_run *r)
{
	size_t cap = r->jobs * ROUND_PER_JOB;
	r->items = cli_xcalloc(cap, sizeof *r->items);
	for (;;) {
		r->nitems = 0;
		while (r->nitems < cap && read_item(r, &r->items[r->nitems]))
			r->nitems++;
		if (r->nitems == 0)
			break;
		evaluate_round(r);
		for (size_t i = 0; i < r->nitems; i++)
			emit(r, &r->items[i]);
		if (r->out.failed)
			break;	/* the output is lost: reading on is no use */
	}
	if (r->open)
		cli_source_close(&r->src);
	free(r->items);
}

/* ------------------------------------------------------------------------
 * main
 * ------------------------------------------------------------------------ */

int cli_select_main(int argc, char **argv)
{
	select_run r;
	memset(&r, 0, sizeof r);
	r.jobs = 1;
	spec.ctx = &r;
	int first;
	int status = cli_parse(&spec, argc, argv, &r.common, &first);
	if (status >= 0 || r.usage_failed) {
		select_spec_free(&r.spec);
		return status >= 0 ? status : CLI_EXIT_USAGE;
	}
	if (first >= argc) {
		select_spec_free(&r.spec);
		return cli_usage_error(&spec, "missing FILE operand ('-' reads standard input)");
	}
	if (r.dup_path && !r.spec.unique) {
		select_spec_free(&r.spec);
		return cli_usage_error(&spec, "--duplicates goes with --unique");
	}
	if (r.jobs == 0) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		r.jobs = n < 1 ? 1 : n > MAX_JOBS ? MAX_JOBS : (unsigned long)n;
	}
	r.colour_err = cli_use_colour(&r.common, stderr);

	hg_diags d;
	hg_diags_init(&d);
	cli_inputs in = { 0 };
	if (cli_inputs_expand(&in, argv + first, argc - first, &d) > 0)
		r.io = 1;
	cli_print_diags(stderr, &d, r.colour_err, 0);
	hg_diags_free(&d);

	hg_buf_init(&r.json_before);
	hg_buf_init(&r.json_after);
	json_frame(&r.json_before, &r.json_after);
	r.out.fp = stdout;
	if (r.dup_path) {
		r.dup.path = r.dup_path;
		if (cli_atomic_open(&r.dup.at, r.dup_path) != 0) {
			cli_error("select", "cannot write '%s': %s", r.dup_path, strerror(errno));
			r.dup.failed = 1;
			r.io = 1;
		} else {
			r.dup.fp = r.dup.at.fp;
		}
	}
	r.session = cli_session_new(&r.common);
	r.scratch = cli_xcalloc(r.jobs, sizeof *r.scratch);
	for (size_t i = 0; i < r.jobs; i++)
		r.scratch[i] = select_scratch_new();
	if (r.spec.unique)
		r.seen = select_seen_new();
	hg_diags_init(&r.rd_d);
	r.inputs = &in;

	if (!r.dup.failed)
		run_rounds(&r);

	if (r.count_only)
		printf("%zu\n", r.selected);
	else
		sink_finish(&r, &r.out);
	if (r.out.failed)
		r.io = 1;
	if (r.dup_path && !r.dup.failed) {
		sink_finish(&r, &r.dup);
		if (r.dup.failed) {
			cli_atomic_abort(&r.dup.at);
			r.io = 1;
		} else if (cli_atomic_commit(&r.dup.at) != 0) {
			cli_error("select", "cannot write '%s': %s", r.dup_path, strerror(errno));
			r.io = 1;
		}
	}
	if (r.spec.unique && !r.common.quiet)
		fprintf(stderr, hg_ngettext("herald select: %zu duplicate game dropped\n",
					    "herald select: %zu duplicate games dropped\n", r.dropped),
			r.dropped);

	hg_diags_free(&r.rd_d);
	select_seen_free(r.seen);
	for (size_t i = 0; i < r.jobs; i++)
		select_scratch_free(r.scratch[i]);
	free(r.scratch);
	hg_session_free(r.session);
	hg_buf_free(&r.json_before);
	hg_buf_free(&r.json_after);
	select_spec_free(&r.spec);
	cli_inputs_free(&in);
	if (r.io)
		return CLI_EXIT_USAGE;
	return r.bad ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}
