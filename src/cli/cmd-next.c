/* cmd-next.c - `herald next`: for correspondence play, the position at the
 * end of a record's main line, whose turn it is, and every legal action
 * (or the result when the game is over). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef struct next_run {
	cli_common common;
	hg_session *session;
	hg_buf out;
	const hg_node *last;	/* the last action replayed on the main line */
	int bad;
} next_run;

static cli_spec spec = {
	.name = "next",
	.synopsis = "[OPTION]... FILE",
	.about =
	"Replay the games of FILE ('-': standard input) and show, for each, the\n"
	"position after the last action of the main line, whose turn it is, and\n"
	"every legal action, one per line as 'seat: action' in canonical spelling,\n"
	"ready to be copied into the record; or the result when the game is over.\n"
	"When the record has an illegal action, the position shown is the one\n"
	"before it.  Diagnostics go to standard error.\n"
	"\n"
	"Exit status: as 'herald check': 0 legal, 1 illegal or malformed, 2 on a\n"
	"usage or input/output error.\n",
};

static void after_action(void *ctx, const hg_game_class *cls, const hg_node *node,
			 const hg_state *after, unsigned depth)
{
	next_run *r = ctx;
	(void)cls;
	(void)after;
	if (depth == 0)
		r->last = node;
}

static void legal_actions(hg_buf *out, const hg_game_class *cls, const hg_state *st)
{
	hg_action_list legal = { 0 };
	cls->legal(st, &legal);
	hg_buf seat, body;
	hg_buf_init(&seat);
	hg_buf_init(&body);
	hg_buf_printf(out, "legal actions (%zu):\n", legal.n);
	for (size_t i = 0; i < legal.n; i++) {
		hg_buf_clear(&seat);
		hg_buf_clear(&body);
		cls->format(st, legal.v[i], &seat, &body);
		hg_buf_printf(out, "%s: %s\n", seat.data ? seat.data : "",
			      body.data ? body.data : "");
		cls->free_action(legal.v[i]);
	}
	free(legal.v);
	hg_buf_free(&seat);
	hg_buf_free(&body);
}

static void next_game(next_run *r, const char *path, size_t index, const hg_game_record *g,
		      hg_diags *d)
{
	if (index > 1)
		hg_buf_putc(&r->out, '\n');
	const char *game = hg_record_tag_value(g, "Game");
	hg_buf_printf(&r->out, "game %zu (%s:%u): %s\n", index, path, g->pos.line,
		      game ? game : "(no Game tag)");
	if (d->nerrors) {
		r->bad = 1;	/* malformed: not replayed */
		return;
	}
	r->last = NULL;
	hg_replay_hooks hooks = { after_action, r };
	hg_state *st = NULL;
	const hg_game_class *cls = NULL;
	int illegal = hg_check_game(r->session, g, d, &hooks, NULL, &st, &cls) != 0 ||
		      d->nerrors > 0;
	if (illegal)
		r->bad = 1;
	if (!st || !cls)
		return;
	/* Did the main line stop before its last written action? */
	const hg_node *written = NULL;
	for (size_t i = 0; i < g->moves.n; i++)
		if (g->moves.nodes[i].kind == HG_NODE_ACTION)
			written = &g->moves.nodes[i];
	const char *stopped = illegal && written != r->last ?
			      " (the main line's last legal action)" : "";
	if (r->last)
		hg_buf_printf(&r->out, "position after %s: %s%s (%s:%u)%s:\n",
			      r->last->action.seat ? r->last->action.seat : "",
			      r->last->action.text ? r->last->action.text : "",
			      r->last->glyph ? r->last->glyph : "", path, r->last->pos.line,
			      stopped);
	else
		hg_buf_printf(&r->out, "starting position%s:\n",
			      *stopped ? " (the first action is illegal)" : "");
	hg_buf render;
	hg_buf_init(&render);
	cls->render(st, &render);
	if (render.len) {
		hg_buf_puts(&r->out, render.data);
		if (render.data[render.len - 1] != '\n')
			hg_buf_putc(&r->out, '\n');
	}
	hg_buf_free(&render);
	const char *result = cls->result(st);
	hg_buf ending;
	hg_buf_init(&ending);
	if (!illegal && hg_record_ending(g, &ending)) {
		/* ended otherwise than by the rules (herald-notation(5), ENDINGS) */
		const char *declared = hg_record_tag_value(g, "Result");
		hg_buf_printf(&r->out, "the game is over: %s (%s)\n",
			      declared ? declared : (g->result ? g->result : "*"), ending.data);
	} else if (result) {
		hg_buf_printf(&r->out, "the game is over: %s\n", result);
	} else {
		const char *who = cls->to_move(st);
		hg_buf_printf(&r->out, "to move: %s (move number %u)\n", who ? who : "?",
			      cls->turn(st));
		legal_actions(&r->out, cls, st);
	}
	hg_buf_free(&ending);
	cls->free_state(st);
}

/* One game for cli_show_games. */
static int show_game(void *ctx, const char *path, size_t index, const hg_game_record *g,
		     hg_diags *d)
{
	next_run *r = ctx;
	r->bad = 0;
	next_game(r, path, index, g, d);
	return r->bad ? CLI_SHOW_BAD : 0;
}

int cli_next_main(int argc, char **argv)
{
	next_run r;
	memset(&r, 0, sizeof r);
	hg_buf_init(&r.out);
	int first;
	int status = cli_parse(&spec, argc, argv, &r.common, &first);
	if (status >= 0)
		return status;
	r.session = hg_session_new(r.common.data_dir);
	status = cli_show_games(&spec, &r.common, argc, argv, first, show_game, &r, &r.out);
	hg_buf_free(&r.out);
	hg_session_free(r.session);
	return status;
}
