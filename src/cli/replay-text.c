/* replay-text.c - the replay as text, for reading: every comment where it
 * stands, as an indented block; glyphs and NAGs in words; after each
 * action the position (or, compact, what changed); an illegal action with
 * its diagnostic in place. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "replay.h"

#define MAX_DEPTH 64	/* variations nested deeper share the last level's memory */

typedef struct text_writer {
	replay_writer base;
	replay_opts opts;
	hg_buf *out;
	/* compact: per depth, the position before and after its last action
	 * (a variation starts from the one before the action it replaces) */
	json_t *last[MAX_DEPTH], *before_last[MAX_DEPTH];
} text_writer;

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

/* The leading blanks of a line. */
static size_t blanks(const char *s, size_t len)
{
	size_t i = 0;
	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i;
}

void replay_comment_block(hg_buf *out, const hg_node *n, unsigned indent)
{
	if (n->kind == HG_NODE_NAG) {
		const char *words = replay_nag_words(n->number);
		hg_buf_printf(out, "%*s$%u%s%s\n", (int)indent, "", n->number, words ? ": " : "",
			      words ? words : "");
		return;
	}
	const char *text = n->comment ? n->comment : "";
	if (n->line_comment) {
		hg_buf_printf(out, "%*s; %s\n", (int)indent, "", text);
		return;
	}
	/* A brace comment's later lines keep their indentation relative to
	 * each other, less what they all share, under the first. */
	size_t common = (size_t)-1;
	for (const char *p = strchr(text, '\n'); p; p = strchr(p + 1, '\n')) {
		const char *line = p + 1;
		size_t len = strcspn(line, "\n");
		size_t b = blanks(line, len);
		if (b < len && b < common)
			common = b;
	}
	if (common == (size_t)-1)
		common = 0;
	hg_buf_printf(out, "%*s{", (int)indent, "");
	unsigned under = indent + (text[0] == ' ' ? 2 : 1);	/* the first line's text */
	const char *line = text;
	for (int first = 1;; first = 0) {
		size_t len = strcspn(line, "\n");
		if (first) {
			hg_buf_putn(out, line, len);
		} else {
			size_t b = blanks(line, len);
			hg_buf_printf(out, "\n%*s", (int)under, "");
			if (b < len)
				hg_buf_putn(out, line + common, len - common);
		}
		if (!line[len])
			break;
		line += len + 1;
	}
	hg_buf_puts(out, "}\n");
}

/* An error about an action says "illegal"; about the tags, the data or the
 * result, "error". */
static void diags_block(hg_buf *out, const hg_diag **v, size_t n, unsigned indent,
			const char *error_word)
{
	for (size_t i = 0; i < n; i++) {
		const hg_diag *dg = v[i];
		hg_buf_printf(out, "%*s%s: ", (int)indent, "",
			      dg->severity == HG_ERROR ? error_word : hg_severity_name(dg->severity));
		hg_buf_puts(out, dg->message);
		hg_buf_printf(out, " [%s]\n", dg->code);
		for (size_t k = 0; k < dg->nnotes; k++)
			hg_buf_printf(out, "%*snote: %s\n", (int)indent + 2, "", dg->notes[k]);
	}
}

static void position(hg_buf *out, const hg_game_class *cls, const hg_state *s, unsigned indent)
{
	hg_buf render;
	hg_buf_init(&render);
	if (hg_render_position(cls, s, &render) == HG_ENOMEM)
		cli_out_of_memory();
	indent_lines(out, render.data, indent);
	hg_buf_free(&render);
}

static int full_wanted(const replay_opts *o, unsigned ply)
{
	if (!o->compact)
		return 1;
	for (size_t i = 0; i < o->nfull; i++)
		if (o->full[i] == ply)
			return 1;
	return 0;
}

static void text_start(void *ctx, const hg_game_record *g, const hg_game_class *cls,
		       const hg_state *start, const hg_diag **diags, size_t ndiags)
{
	text_writer *w = ctx;
	const char *game = hg_record_tag_value(g, "Game");
	hg_buf_printf(w->out, "%sgame %zu (", w->base.index > 1 ? "\n" : "", w->base.index);
	cli_put_place(w->out, w->base.path, g->pos.line);
	hg_buf_printf(w->out, "): %s", game ? game : "(no Game tag)");
	if (w->base.as)
		hg_buf_printf(w->out, ", as %s sees it", w->base.as);
	hg_buf_putc(w->out, '\n');
	for (size_t i = 0; i < g->header.n; i++)
		replay_comment_block(w->out, &g->header.nodes[i], 0);
	diags_block(w->out, diags, ndiags, 0, "error");
	for (size_t k = 0; k < MAX_DEPTH; k++) {
		json_decref(w->last[k]);
		json_decref(w->before_last[k]);
		w->last[k] = w->before_last[k] = NULL;
	}
	if (!start)
		return;
	hg_buf_puts(w->out, "start:\n");
	position(w->out, cls, start, 4);
	hg_buf_putc(w->out, '\n');
	if (w->opts.compact)
		w->last[0] = replay_json_position(cls, start);
}

static void text_step(void *ctx, const hg_game_class *cls, const replay_step *st)
{
	text_writer *w = ctx;
	unsigned d = st->depth < MAX_DEPTH ? st->depth : MAX_DEPTH - 1;
	json_t *now = NULL;
	if (w->opts.compact && st->after_state) {
		json_t *base = st->label && d > 0 ? w->before_last[d - 1] : w->last[d];
		now = replay_json_position(cls, st->after_state);
		json_incref(base);
		json_decref(w->before_last[d]);
		json_decref(w->last[d]);
		w->before_last[d] = base;
		w->last[d] = json_incref(now);
	}
	if (!replay_opts_shows(&w->opts, st->ply)) {
		json_decref(now);
		return;
	}
	unsigned indent = 4 * st->depth;
	hg_buf *out = w->out;
	if (st->label)
		hg_buf_printf(out, "%*s%s\n", (int)(indent ? indent - 2 : 0), "", st->label);
	for (size_t i = 0; i < st->nbefore; i++)
		replay_comment_block(out, st->before[i], indent);
	hg_buf_printf(out, "%*s", (int)indent, "");
	if (st->movenum)
		hg_buf_printf(out, "%u. ", st->movenum);
	const hg_node *n = st->node;
	hg_buf_printf(out, "%s: %s%s\n", n->action.seat ? n->action.seat : "",
		      n->action.text ? n->action.text : "", n->glyph ? n->glyph : "");
	const char *words = replay_glyph_words(n->glyph);
	if (words)
		hg_buf_printf(out, "%*s%s: %s\n", (int)indent + 4, "", n->glyph, words);
	for (size_t i = 0; i < st->nafter; i++)
		replay_comment_block(out, st->after[i], indent + 4);
	diags_block(out, st->diags, st->ndiags, indent + 4, "illegal");
	if (st->illegal) {
		hg_buf_printf(out, "%*s(the %s stops here)\n", (int)indent + 4, "",
			      st->depth ? "variation" : "game");
	} else if (full_wanted(&w->opts, st->ply)) {
		position(out, cls, st->after_state, indent + 4);
	} else {
		replay_json_changes(w->before_last[d], now, indent + 4, out);
	}
	hg_buf_putc(out, '\n');
	json_decref(now);
	replay_writer_flush(&w->base, out);
}

static void text_end(void *ctx, const hg_game_record *g, const hg_game_class *cls,
		     const hg_state *final, const hg_diag **diags, size_t ndiags)
{
	text_writer *w = ctx;
	hg_buf *out = w->out;
	if (final && cls) {
		if (w->opts.compact) {
			hg_buf_puts(out, "end:\n");
			position(out, cls, final, 4);
		}
		const char *result = cls->result(final);
		const char *who = cls->to_move(final);
		if (result)
			hg_buf_printf(out, "result: %s\n", result);
		else if (who)
			hg_buf_printf(out, "not over: %s to move\n", who);
	}
	diags_block(out, diags, ndiags, 0, "error");
	for (size_t i = 0; i < g->trailer.n; i++)
		replay_comment_block(out, &g->trailer.nodes[i], 0);
}

static int text_finish(replay_writer *w)
{
	(void)w;
	return 0;
}

static void text_free(replay_writer *base)
{
	text_writer *w = (text_writer *)base;
	for (size_t k = 0; k < MAX_DEPTH; k++) {
		json_decref(w->last[k]);
		json_decref(w->before_last[k]);
	}
	free(w);
}

replay_writer *replay_text_new(const replay_opts *o, hg_buf *out)
{
	text_writer *w = cli_xcalloc(1, sizeof *w);
	w->opts = *o;
	w->out = out;
	w->base.sink = (replay_sink){ text_start, text_step, text_end, w };
	w->base.finish = text_finish;
	w->base.free = text_free;
	return &w->base;
}
