/* cmd-replay.c - `herald replay`: every action of a record as written,
 * with its comments, and the position after it, as text for reading,
 * JSON for other programs, or a page to look at.  For teaching.  The
 * walk is replay-walk.c; the writers are replay-text.c, replay-json.c and
 * replay-html.c. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay.h"

enum { OPT_FROM = 0x100, OPT_START, OPT_TO, OPT_COMPACT, OPT_FULL, OPT_PRINT, OPT_AS = 'a' };
enum { FORMAT_TEXT, FORMAT_JSON, FORMAT_HTML };

typedef struct replay_run {
	cli_common common;
	hg_session *session;
	hg_buf out;
	replay_opts opts;
	int print;
	const char *as;			/* --as, or NULL */
	int from;			/* --from: cli_informat, -1: by extension */
	const char *old_from;		/* --from=N, the old --start=N, or NULL */
	replay_writer *writer;
} replay_run;

static const char *const formats[] = { "text", "json", "html", NULL };

static const struct option longopts[] = {
	{ "from", required_argument, NULL, OPT_FROM },
	{ "start", required_argument, NULL, OPT_START },
	{ "to", required_argument, NULL, OPT_TO },
	{ "compact", no_argument, NULL, OPT_COMPACT },
	{ "full", required_argument, NULL, OPT_FULL },
	{ "print", no_argument, NULL, OPT_PRINT },
	{ "as", required_argument, NULL, OPT_AS },
	{ NULL, 0, NULL, 0 }
};

static int option(void *ctx, int opt, const char *arg);

static cli_spec spec = {
	.name = "replay",
	.synopsis = "[OPTION]... FILE",
	.about =
	N_("Replay the games of FILE ('-': standard input) action by action: each\n"
	"action as written, the comments around it, its glyphs and NAGs in words,\n"
	"and the position after it as the game draws it.  Variations are replayed\n"
	"from the position where they branch, indented by their depth and labelled\n"
	"with the action they replace.  A line stops at its first illegal action,\n"
	"shown in its place with the rule it breaks; diagnostics also go to\n"
	"standard error.\n"
	"\n"
	"Exit status: as 'herald check': 0 legal, 1 illegal or malformed, 2 on a\n"
	"usage or input/output error.\n"),
	.options_help =
	N_("      --from=FORMAT      read FILE as FORMAT: hgn, json, jsonl or yaml\n"
	"      --start=N          start showing at action N (actions count from 1 in\n"
	"                         each line, a variation going on from the action it\n"
	"                         replaces; --from=N still says it, deprecated)\n"
	"      --to=N             stop showing after action N\n"
	"      --compact          after each action only what changed (the whole\n"
	"                         position at the start and the end)\n"
	"      --full=N[,N]...    with --compact: the whole position after these\n"
	"                         actions too\n"
	"      --print            html: one position a printed page\n"
	"  -a, --as=SEAT          the game as the seat SEAT sees it: its view (see\n"
	"                         'herald view'), without the Seed, the comments\n"
	"                         and the variations; others' hidden cards as '?'\n"),
	.shortopts = "a:",
	.formats = formats,
	.longopts = longopts,
	.option = option,
};

void replay_writer_flush(replay_writer *w, hg_buf *out)
{
	if (w->io_error)
		hg_buf_clear(out);
	else if (out->len >= 1 << 16 && cli_flush_buf("replay", stdout, out) != 0)
		w->io_error = 1;
}

int replay_opts_shows(const replay_opts *o, unsigned ply)
{
	return ply >= o->start && (o->to == 0 || ply <= o->to);
}

static int parse_full(replay_run *r, const char *arg)
{
	const char *p = arg;
	do {
		size_t len = strcspn(p, ",");
		char word[16];
		if (len == 0 || len >= sizeof word) {
			cli_usage_error(&spec, "invalid value '%s' for --full (action numbers "
					"separated by commas)", arg);
			return -1;
		}
		memcpy(word, p, len);
		word[len] = '\0';
		unsigned long v;
		if (cli_parse_number(&spec, "--full", word, 1, 1000000, &v) != 0)
			return -1;
		r->opts.full = cli_xrealloc(r->opts.full, (r->opts.nfull + 1) * sizeof *r->opts.full);
		r->opts.full[r->opts.nfull++] = (unsigned)v;
		p += len;
	} while (*p++ == ',');
	return 0;
}

static int option(void *ctx, int opt, const char *arg)
{
	replay_run *r = ctx;
	unsigned long v;
	switch (opt) {
	case OPT_FROM:
		/* --from was the first action shown before it named the input
		 * format, as it does in every other command; no format's name
		 * begins with a digit, so the old use still works (noted). */
		if (arg[0] < '0' || arg[0] > '9')
			return cli_from_option(&spec, arg, &r->from);
		if (cli_parse_number(&spec, "--from", arg, 1, 1000000, &v) != 0)
			return -1;
		r->opts.start = (unsigned)v;
		r->old_from = arg;
		return 0;
	case OPT_START:
	case OPT_TO:
		if (cli_parse_number(&spec, opt == OPT_START ? "--start" : "--to", arg, 1,
				     1000000, &v) != 0)
			return -1;
		*(opt == OPT_START ? &r->opts.start : &r->opts.to) = (unsigned)v;
		return 0;
	case OPT_COMPACT:
		r->opts.compact = 1;
		return 0;
	case OPT_FULL:
		return parse_full(r, arg);
	case OPT_PRINT:
		r->print = 1;
		return 0;
	case OPT_AS:
		if (!*arg) {
			cli_usage_error(&spec, "--as needs a seat");
			return -1;
		}
		r->as = arg;
		return 0;
	}
	return -1;
}

/* The canonical name of a seat of the record's game (NULL when the
 * set-up fails): malloc'd. */
static char *seat_name(replay_run *r, const hg_game_record *g, unsigned seat)
{
	const hg_game_class *cls;
	const hg_gdata *data;
	hg_diags scratch;
	hg_diags_init(&scratch);
	char *name = NULL;
	if (hg_session_prepare(r->session, g, &cls, &data, &scratch) == 0) {
		hg_state *st = hg_state_setup(cls, data, g, &scratch);
		if (!st && cli_ran_out_of_memory(&scratch))
			cli_out_of_memory();
		if (st) {
			const char *s = cls->seat_name(st, seat);
			name = s ? cli_xstrdup(s) : NULL;
			cls->free_state(st);
		}
	}
	hg_diags_free(&scratch);
	return name;
}

/* --as: the seat's view replayed.  What the view could not verify is no
 * news to its seat and goes unsaid (as `herald next --as`); its errors
 * are the game's. */
static int show_view(replay_run *r, const hg_game_record *g, hg_diags *d)
{
	unsigned seat;
	hg_game_record *view = NULL;
	int rc = hg_view_seat(r->session, g, r->as, &seat, d);
	if (rc == 0)
		view = hg_view_record(r->session, g, seat, d);
	if (rc == HG_ENOMEM || (!view && cli_ran_out_of_memory(d)))
		cli_out_of_memory();
	if (!view) {
		if (r->common.format == FORMAT_TEXT) {
			hg_buf_printf(&r->out, "%sgame %zu (", r->writer->index > 1 ? "\n" : "",
				      r->writer->index);
			cli_put_place(&r->out, r->writer->path, g->pos.line);
			hg_buf_printf(&r->out, "): no view for '%s' (see the diagnostics)\n",
				      r->as);
		}
		return CLI_SHOW_BAD;
	}
	char *name = seat_name(r, g, seat);
	r->writer->as = name ? name : r->as;
	hg_diags view_diags;
	hg_diags_init(&view_diags);
	int bad = replay_walk(r->session, view, &view_diags, &r->writer->sink, 1) != 0;
	for (size_t i = 0; i < view_diags.n; i++)
		if (view_diags.v[i].severity == HG_ERROR) {
			hg_diags_move(d, &view_diags);
			break;
		}
	hg_diags_free(&view_diags);
	r->writer->as = NULL;
	free(name);
	hg_record_free(view);
	return (bad ? CLI_SHOW_BAD : 0) | (r->writer->io_error ? CLI_SHOW_IO : 0);
}

/* One game for cli_show_games. */
static int show_game(void *ctx, const char *path, size_t index, const hg_game_record *g,
		     hg_diags *d)
{
	replay_run *r = ctx;
	if (d->nerrors) {
		/* malformed: not replayed, only named */
		if (r->common.format == FORMAT_TEXT) {
			hg_buf_printf(&r->out, "%sgame %zu (", index > 1 ? "\n" : "", index);
			cli_put_place(&r->out, path, g->pos.line);
			hg_buf_puts(&r->out, "): not replayed: the record is malformed\n");
		}
		return CLI_SHOW_BAD;
	}
	r->writer->path = path;
	r->writer->index = index;
	if (r->as)
		return show_view(r, g, d);
	int bad = replay_walk(r->session, g, d, &r->writer->sink, 0) != 0;
	return (bad ? CLI_SHOW_BAD : 0) | (r->writer->io_error ? CLI_SHOW_IO : 0);
}

static int check_options(replay_run *r)
{
	if (r->opts.to && r->opts.start > r->opts.to)
		return cli_usage_error(&spec, "--start=%u comes after --to=%u", r->opts.start,
				       r->opts.to);
	if (r->opts.nfull && !r->opts.compact)
		return cli_usage_error(&spec, "--full goes with --compact (without it every "
				       "position is shown whole)");
	if (r->print && r->common.format != FORMAT_HTML)
		return cli_usage_error(&spec, "--print goes with --format=html");
	if ((r->opts.start > 1 || r->opts.to) && r->common.format == FORMAT_HTML)
		return cli_usage_error(&spec, "--start and --to go with text and json (the page "
				       "holds the whole game)");
	if (r->opts.compact && r->common.format != FORMAT_TEXT)
		return cli_usage_error(&spec, "--compact goes with the text format");
	return -1;
}

int cli_replay_main(int argc, char **argv)
{
	replay_run r;
	memset(&r, 0, sizeof r);
	r.opts.start = 1;
	r.from = -1;
	spec.ctx = &r;
	hg_buf_init(&r.out);
	int first;
	int status = cli_parse(&spec, argc, argv, &r.common, &first);
	if (status < 0)
		status = check_options(&r);
	if (status < 0 && r.old_from && !r.common.quiet)
		fprintf(stderr, _("herald replay: --from=%s for the first action shown is "
				  "deprecated: use --start=%s (--from names the input format)\n"),
			r.old_from, r.old_from);
	if (status >= 0) {
		free(r.opts.full);
		hg_buf_free(&r.out);
		return status;
	}
	r.session = cli_session_new(&r.common);
	switch (r.common.format) {
	case FORMAT_JSON:
		r.writer = replay_jsonl_new(&r.opts, &r.out);
		break;
	case FORMAT_HTML:
		r.writer = replay_html_new(&r.opts, &r.out, hg_session_datapath(r.session), r.print);
		break;
	default:
		r.writer = replay_text_new(&r.opts, &r.out);
		break;
	}
	status = cli_show_games(&spec, &r.common, argc, argv, first, r.from, show_game, &r,
				&r.out);
	if (r.writer->finish(r.writer) != 0 && status != CLI_EXIT_USAGE)
		status = CLI_EXIT_USAGE;
	else if (r.out.len && cli_flush_buf("replay", stdout, &r.out) != 0)
		status = CLI_EXIT_USAGE;
	r.writer->free(r.writer);
	free(r.opts.full);
	hg_buf_free(&r.out);
	hg_session_free(r.session);
	return status;
}
