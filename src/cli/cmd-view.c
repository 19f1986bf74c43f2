/* cmd-view.c - `herald view --as SEAT`: each game of a record as one seat
 * may see it (hg_view_record), in canonical HGN on standard output. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef struct view_run {
	cli_common common;
	const char *as;		/* --as */
	hg_session *session;
	hg_buf out;
	size_t written;
	int unknown_seat;
} view_run;

static int view_option(void *ctx, int opt, const char *arg)
{
	view_run *r = ctx;
	if (opt == 'a') {
		r->as = arg;
		return 0;
	}
	return -1;
}

static const struct option longopts[] = {
	{ "as", required_argument, NULL, 'a' },
	{ NULL, 0, NULL, 0 },
};

static cli_spec spec = {
	.name = "view",
	.synopsis = "--as=SEAT [OPTION]... FILE",
	.about =
	N_("Write each game of FILE ('-': standard input) as the seat SEAT may see it,\n"
	"in canonical HGN: the other seats' hidden cards as '?', the seat's own\n"
	"cards named, the Seed tag withheld, comments and variations left out.\n"
	"'herald check' of a view finds it legal or unverified.  Diagnostics go to\n"
	"standard error; no view is written of a game that is not legal.\n"
	"\n"
	"Exit status: 0 when all went well, 1 when a game is malformed or illegal,\n"
	"2 on a usage or input/output error (an unknown SEAT among them).\n"),
	.options_help =
	N_("  -a, --as=SEAT          the seat (its name, e.g. P2, or its player's name)\n"),
	.shortopts = "a:",
	.longopts = longopts,
	.option = view_option,
};

static int view_game(void *ctx, const char *path, size_t index, const hg_game_record *g,
		     hg_diags *d)
{
	view_run *r = ctx;
	(void)path;
	(void)index;
	if (d->nerrors)
		return CLI_SHOW_BAD;	/* malformed: not replayed */
	unsigned seat;
	int rc = hg_view_seat(r->session, g, r->as, &seat, d);
	if (rc == HG_ENOMEM)
		cli_out_of_memory();
	if (rc != 0) {
		for (size_t i = 0; i < d->n; i++)
			if (strcmp(d->v[i].code, "view.unknown-seat") == 0) {
				r->unknown_seat = 1;
				return CLI_SHOW_IO;	/* a usage error: stop here */
			}
		return CLI_SHOW_BAD;
	}
	hg_game_record *view = hg_view_record(r->session, g, seat, d);
	if (!view && cli_ran_out_of_memory(d))
		cli_out_of_memory();
	if (!view)
		return CLI_SHOW_BAD;
	cli_hgn_append(&r->out, view, &r->written);
	hg_record_free(view);
	return 0;
}

int cli_view_main(int argc, char **argv)
{
	view_run r;
	memset(&r, 0, sizeof r);
	spec.ctx = &r;
	int first;
	int status = cli_parse(&spec, argc, argv, &r.common, &first);
	if (status >= 0)
		return status;
	if (!r.as)
		return cli_usage_error(&spec, "missing --as=SEAT (the seat whose view to write)");
	hg_buf_init(&r.out);
	r.session = cli_session_new(&r.common);
	status = cli_show_games(&spec, &r.common, argc, argv, first, -1, view_game, &r, &r.out);
	hg_buf_free(&r.out);
	hg_session_free(r.session);
	return r.unknown_seat ? CLI_EXIT_USAGE : status;
}
