/* cmd-move.c - `herald move`: one seat's action in a game herald referees,
 * with the chance that follows it, appended to the master record under
 * its lock (herald-move(1)). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* An action read from standard input: as long as a token may be in HGN. */
#define ACTION_TEXT_MAX (64 * 1024)

typedef struct move_run {
	cli_common common;
	const char *seat, *key;
	unsigned long after;
	int has_after, no_wait;
	const char *action;	/* the action, its lines joined */
} move_run;

static cli_spec spec;

static int move_option(void *ctx, int opt, const char *arg)
{
	move_run *r = ctx;
	switch (opt) {
	case 'a': r->seat = arg; return 0;
	case 'k': r->key = arg; return 0;
	case 'n': r->no_wait = 1; return 0;
	case 'A':
		r->has_after = 1;
		return cli_parse_number(&spec, "--after", arg, 0, 1000000000, &r->after);
	}
	return -1;
}

static const struct option longopts[] = {
	{ "as", required_argument, NULL, 'a' },
	{ "after", required_argument, NULL, 'A' },
	{ "key", required_argument, NULL, 'k' },
	{ "no-wait", no_argument, NULL, 'n' },
	{ NULL, 0, NULL, 0 },
};

static cli_spec spec = {
	.name = "move",
	.synopsis = "--as=SEAT [OPTION]... FILE [ACTION...]",
	.about =
	N_("Play SEAT's action in the game of FILE, a master record made by 'herald\n"
	"new'.  The action is the words after FILE, or standard input when there\n"
	"are none; 'resign' resigns.  herald checks it against the position as\n"
	"'herald check' would, appends it with the chance that follows it (the\n"
	"dice, the next draw: the player writes '?' for them or leaves them out),\n"
	"and rewrites FILE atomically, holding the lock of FILE.key.  It prints\n"
	"what the seat is told: its own actions, who acted after it, who is to\n"
	"move, and the number of actions (for --after).\n"
	"\n"
	"Exit status: 0 when the move was written; 1 when it was refused (illegal,\n"
	"out of turn, stale, the game over): FILE is then unchanged; 2 on a usage\n"
	"or input/output error (FILE or its key unreadable, the lock busy).\n"),
	.options_help =
	N_("  -a, --as=SEAT          the seat that moves (its canonical name, e.g. P1)\n"
	"  -A, --after=N          refuse the move unless the record has N actions\n"
	"                         (the count the seat last saw): no stale answer\n"
	"  -k, --key=KEYFILE      the key file (default FILE.key)\n"
	"  -n, --no-wait          fail at once when another herald holds the lock\n"),
	.shortopts = "a:A:k:n",
	.longopts = longopts,
	.option = move_option,
};

static int play(hg_master *m, void *ctx, hg_buf *told, hg_diags *d)
{
	const move_run *r = ctx;
	return hg_master_move(m, r->seat, r->action, r->has_after ? (long)r->after : -1, told, d);
}

int cli_move_main(int argc, char **argv)
{
	move_run r;
	memset(&r, 0, sizeof r);
	spec.ctx = &r;
	int first;
	int status = cli_parse(&spec, argc, argv, &r.common, &first);
	if (status >= 0)
		return status;
	if (first >= argc)
		return cli_usage_error(&spec, "missing FILE");
	if (!r.seat)
		return cli_usage_error(&spec, "missing --as=SEAT");
	const char *path = argv[first];
	hg_buf action;
	hg_buf_init(&action);
	hg_diags d;
	hg_diags_init(&d);
	if (first + 1 < argc) {
		for (int i = first + 1; i < argc; i++)
			hg_buf_printf(&action, "%s%s", i > first + 1 ? " " : "", argv[i]);
	} else if (cli_read_stdin_bounded(&action, ACTION_TEXT_MAX, &d) != 0) {
		cli_print_diags(stderr, &d, cli_use_colour(&r.common, stderr), 0);
		hg_diags_free(&d);
		hg_buf_free(&action);
		return CLI_EXIT_USAGE;
	}
	/* one action: the lines of standard input are joined */
	for (size_t i = 0; i < action.len; i++)
		if (action.data[i] == '\n' || action.data[i] == '\r' || action.data[i] == '\t')
			action.data[i] = ' ';
	r.action = action.data ? action.data : "";
	hg_diags_free(&d);
	status = cli_master_run(&r.common, "move", path, r.key, !r.no_wait, play, &r);
	hg_buf_free(&action);
	return status;
}
