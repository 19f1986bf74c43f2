/* cmd-replay.c - `herald replay`: every action of a record as written,
 * with its comments, and the position after it as the game's engine
 * renders it; variations indented and labelled.  For teaching. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* What the replay hook needs to know about an action beyond the node: the
 * move number written before it, its place in its line (for the comments
 * after it) and, for the first action of a variation, the label. */
typedef struct action_info {
	const hg_node *node;
	const hg_line *line;
	size_t index;
	unsigned movenum;	/* 0: none written right before */
	char *label;		/* first action of a variation, else NULL */
} action_info;

typedef struct replay_run {
	cli_common common;
	hg_session *session;
	hg_buf out;
	action_info *info;	/* every action, in document order */
	size_t ninfo, capinfo, cursor;
	int io_error, bad;
} replay_run;

static cli_spec spec = {
	.name = "replay",
	.synopsis = "[OPTION]... FILE",
	.about =
	"Replay the games of FILE ('-': standard input) action by action: each\n"
	"action as written (seat, action, annotation glyph), the comments after it,\n"
	"and the position after it as the game draws it.  Variations are replayed\n"
	"from the position where they branch, indented by their depth and labelled\n"
	"with the action they replace.  Diagnostics go to standard error; the replay\n"
	"of a line stops at its first illegal action.\n"
	"\n"
	"Exit status: as 'herald check': 0 legal, 1 illegal or malformed, 2 on a\n"
	"usage or input/output error.\n",
};

static void add_info(replay_run *r, const hg_line *line, size_t index, unsigned movenum,
		     char *label)
{
	if (r->ninfo == r->capinfo) {
		r->capinfo = r->capinfo ? 2 * r->capinfo : 64;
		r->info = hg_xrealloc(r->info, r->capinfo * sizeof *r->info);
	}
	action_info *ai = &r->info[r->ninfo++];
	ai->node = &line->nodes[index];
	ai->line = line;
	ai->index = index;
	ai->movenum = movenum;
	ai->label = label;
}

static void action_text(hg_buf *b, const hg_node *n)
{
	hg_buf_printf(b, "%s: %s%s", n->action.seat ? n->action.seat : "",
		      n->action.text ? n->action.text : "", n->glyph ? n->glyph : "");
}

/* Walks the record in the order the replay visits it. */
static void collect(replay_run *r, const hg_line *line, const char *file, unsigned *nvar)
{
	const hg_node *last_action = NULL;
	unsigned movenum = 0;
	for (size_t i = 0; i < line->n; i++) {
		const hg_node *n = &line->nodes[i];
		switch (n->kind) {
		case HG_NODE_MOVENUM:
			movenum = n->number;
			break;
		case HG_NODE_ACTION:
			add_info(r, line, i, movenum, NULL);
			movenum = 0;
			last_action = n;
			break;
		case HG_NODE_VARIATION: {
			hg_buf b;
			hg_buf_init(&b);
			hg_buf_printf(&b, "variation %u", ++*nvar);
			if (last_action) {
				hg_buf_puts(&b, ", instead of ");
				action_text(&b, last_action);
				hg_buf_printf(&b, " (%s:%u)", file, last_action->pos.line);
			}
			hg_buf_putc(&b, ':');
			/* The label goes with the variation's first action. */
			size_t before = r->ninfo;
			collect(r, n->variation, file, nvar);
			if (r->ninfo > before && !r->info[before].label)
				r->info[before].label = hg_buf_steal(&b);
			hg_buf_free(&b);
			break;
		}
		case HG_NODE_COMMENT:
		case HG_NODE_NAG:
			break;
		}
	}
}

static void indent_lines(hg_buf *out, const char *text, unsigned indent)
{
	while (text && *text) {
		const char *nl = strchr(text, '\n');
		size_t len = nl ? (size_t)(nl - text) : strlen(text);
		hg_buf_printf(out, "%*s", (int)indent, "");
		hg_buf_putn(out, text, len);
		hg_buf_putc(out, '\n');
		text = nl ? nl + 1 : NULL;
	}
}

/* The comments and NAGs written after the action, before the next one. */
static void annotations(hg_buf *out, const action_info *ai, unsigned indent)
{
	for (size_t i = ai->index + 1; i < ai->line->n; i++) {
		const hg_node *n = &ai->line->nodes[i];
		if (n->kind == HG_NODE_COMMENT) {
			hg_buf_printf(out, "%*s", (int)indent, "");
			hg_buf_puts(out, n->line_comment ? "; " : "{");
			hg_buf_puts(out, n->comment ? n->comment : "");
			hg_buf_puts(out, n->line_comment ? "\n" : "}\n");
		} else if (n->kind == HG_NODE_NAG) {
			hg_buf_printf(out, "%*s$%u\n", (int)indent, "", n->number);
		} else {
			break;
		}
	}
}

static void after_action(void *ctx, const hg_game_class *cls, const hg_node *node,
			 const hg_state *after, unsigned depth)
{
	replay_run *r = ctx;
	/* The replay visits a subsequence of the walk: skip what it did not. */
	while (r->cursor < r->ninfo && r->info[r->cursor].node != node)
		r->cursor++;
	const action_info *ai = r->cursor < r->ninfo ? &r->info[r->cursor] : NULL;
	unsigned indent = 4 * depth;
	if (ai && ai->label)
		hg_buf_printf(&r->out, "%*s%s\n", (int)(indent ? indent - 2 : 0), "", ai->label);
	hg_buf_printf(&r->out, "%*s", (int)indent, "");
	if (ai && ai->movenum)
		hg_buf_printf(&r->out, "%u. ", ai->movenum);
	action_text(&r->out, node);
	hg_buf_putc(&r->out, '\n');
	if (ai)
		annotations(&r->out, ai, indent + 4);
	hg_buf render;
	hg_buf_init(&render);
	cls->render(after, &render);
	indent_lines(&r->out, render.data, indent + 4);
	hg_buf_free(&render);
	hg_buf_putc(&r->out, '\n');
	/* After a write error, one message is enough: the rest is dropped. */
	if (r->io_error)
		hg_buf_clear(&r->out);
	else if (cli_flush_buf("replay", stdout, &r->out) != 0)
		r->io_error = 1;
}

/* The position before the first action, when the set-up is usable (its
 * problems are reported by the replay itself). */
static void show_start(replay_run *r, const hg_game_record *g)
{
	hg_diags scratch;
	hg_diags_init(&scratch);
	const hg_game_class *cls;
	const hg_gdata *data;
	if (hg_session_prepare(r->session, g, &cls, &data, &scratch) == 0) {
		hg_state *st = cls->setup(data, g, &scratch);
		if (st) {
			hg_buf render;
			hg_buf_init(&render);
			cls->render(st, &render);
			hg_buf_puts(&r->out, "start:\n");
			indent_lines(&r->out, render.data, 4);
			hg_buf_putc(&r->out, '\n');
			hg_buf_free(&render);
			cls->free_state(st);
		}
	}
	hg_diags_free(&scratch);
}

static void replay_game(replay_run *r, const char *path, size_t index, const hg_game_record *g,
			hg_diags *d)
{
	const char *game = hg_record_tag_value(g, "Game");
	hg_buf_printf(&r->out, "%sgame %zu (%s:%u): %s\n", index > 1 ? "\n" : "", index, path,
		      g->pos.line, game ? game : "(no Game tag)");
	if (d->nerrors) {
		r->bad = 1;	/* malformed: not replayed */
		return;
	}
	unsigned nvar = 0;
	collect(r, &g->moves, path, &nvar);
	r->cursor = 0;
	show_start(r, g);
	hg_replay_hooks hooks = { after_action, r };
	hg_state *final = NULL;
	const hg_game_class *cls = NULL;
	if (hg_check_game(r->session, g, d, &hooks, NULL, &final, &cls) != 0 || d->nerrors)
		r->bad = 1;
	if (final && cls) {
		const char *result = cls->result(final);
		const char *who = cls->to_move(final);
		if (result)
			hg_buf_printf(&r->out, "result: %s\n", result);
		else if (who)
			hg_buf_printf(&r->out, "not over: %s to move\n", who);
		cls->free_state(final);
	}
	for (size_t i = 0; i < r->ninfo; i++)
		free(r->info[i].label);
	r->ninfo = 0;
}

/* One game for cli_show_games. */
static int show_game(void *ctx, const char *path, size_t index, const hg_game_record *g,
		     hg_diags *d)
{
	replay_run *r = ctx;
	r->bad = 0;
	replay_game(r, path, index, g, d);
	return (r->bad ? CLI_SHOW_BAD : 0) | (r->io_error ? CLI_SHOW_IO : 0);
}

int cli_replay_main(int argc, char **argv)
{
	replay_run r;
	memset(&r, 0, sizeof r);
	hg_buf_init(&r.out);
	int first;
	int status = cli_parse(&spec, argc, argv, &r.common, &first);
	if (status >= 0)
		return status;
	r.session = cli_session_new(&r.common);
	status = cli_show_games(&spec, &r.common, argc, argv, first, show_game, &r, &r.out);
	free(r.info);
	hg_buf_free(&r.out);
	hg_session_free(r.session);
	return status;
}
