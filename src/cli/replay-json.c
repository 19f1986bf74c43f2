/* replay-json.c - the replay as JSON (grammar/herald-replay.schema.json):
 * a "game" object with the set-up, one "action" object per action with
 * its diagnostics and the position after it, an "end" object; the JSON
 * Lines writer; and the changes from one position to the next, which the
 * compact text shows. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "replay.h"

static json_t *annotation_json(const hg_node *n)
{
	if (n->kind == HG_NODE_NAG) {
		const char *words = replay_nag_words(n->number);
		json_t *o = json_pack("{s:i}", "nag", (int)n->number);
		if (words)
			json_object_set_new(o, "words", json_string(words));
		return o;
	}
	return json_pack("{s:o, s:b}", "comment", cli_json_string(n->comment ? n->comment : ""),
			 "line_comment", n->line_comment);
}

static json_t *annotations_json(const hg_node *const *v, size_t n)
{
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, annotation_json(v[i]));
	return a;
}

static json_t *line_comments_json(const hg_line *line)
{
	json_t *a = json_array();
	for (size_t i = 0; i < line->n; i++)
		if (line->nodes[i].kind == HG_NODE_COMMENT || line->nodes[i].kind == HG_NODE_NAG)
			json_array_append_new(a, annotation_json(&line->nodes[i]));
	return a;
}

static json_t *diags_json(const hg_diag **v, size_t n)
{
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, cli_json_diag(v[i]));
	return a;
}

json_t *replay_json_position(const hg_game_class *cls, const hg_state *s)
{
	json_t *p = s && cls && cls->position_json ? cls->position_json(s) : NULL;
	return p ? p : json_null();
}

json_t *replay_json_start(const hg_game_record *g, const hg_game_class *cls, const hg_state *start,
			  size_t index, const char *path, const hg_diag **diags, size_t ndiags)
{
	json_t *tags = json_array();
	for (size_t i = 0; i < g->ntags; i++)
		json_array_append_new(tags, json_pack("[o, o]", cli_json_string(g->tags[i].name),
						      cli_json_string(g->tags[i].value)));
	return json_pack("{s:s, s:I, s:o, s:i, s:o, s:o, s:o, s:o, s:o}", "type", "game",
			 "index", (json_int_t)index, "file", cli_json_string(path),
			 "line", (int)g->pos.line,
			 "game", cls ? json_string(cls->id) : json_null(), "tags", tags,
			 "comments", line_comments_json(&g->header),
			 "diagnostics", diags_json(diags, ndiags),
			 "position", replay_json_position(cls, start));
}

json_t *replay_json_step(const hg_game_class *cls, const replay_step *st)
{
	const hg_node *n = st->node;
	json_t *o = json_pack("{s:s, s:i, s:i, s:o, s:o, s:i, s:i}", "type", "action",
			      "ply", (int)st->ply, "depth", (int)st->depth,
			      "seat", cli_json_string(n->action.seat ? n->action.seat : ""),
			      "action", cli_json_string(n->action.text ? n->action.text : ""),
			      "line", (int)n->pos.line, "col", (int)n->pos.col);
	if (st->movenum)
		json_object_set_new(o, "movenum", json_integer(st->movenum));
	if (st->label)
		json_object_set_new(o, "variation", cli_json_string(st->label));
	if (n->glyph) {
		json_object_set_new(o, "glyph", json_string(n->glyph));
		const char *words = replay_glyph_words(n->glyph);
		if (words)
			json_object_set_new(o, "glyph_words", json_string(words));
	}
	json_object_set_new(o, "before", annotations_json(st->before, st->nbefore));
	json_object_set_new(o, "after", annotations_json(st->after, st->nafter));
	json_object_set_new(o, "legal", json_boolean(!st->illegal));
	json_object_set_new(o, "diagnostics", diags_json(st->diags, st->ndiags));
	json_object_set_new(o, "position", replay_json_position(cls, st->after_state));
	return o;
}

json_t *replay_json_end(const hg_game_record *g, const hg_game_class *cls, const hg_state *final,
			const hg_diag **diags, size_t ndiags)
{
	const char *result = final && cls ? cls->result(final) : NULL;
	const char *who = final && cls && !result ? cls->to_move(final) : NULL;
	return json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:o}", "type", "end",
			 "declared", g->result ? cli_json_string(g->result) : json_null(),
			 "result", result ? cli_json_string(result) : json_null(),
			 "to_move", who ? cli_json_string(who) : json_null(),
			 "comments", line_comments_json(&g->trailer),
			 "diagnostics", diags_json(diags, ndiags),
			 "position", replay_json_position(cls, final));
}

/* ------------------------------------------------------------ changes */
static int card_like(const json_t *v);

/* A value as the compact text shows it: a string bare, null "-", an array
 * of plain values (or of cards) as a list. */
static void value_text(const json_t *v, hg_buf *out)
{
	if (card_like(v)) {
		value_text(json_object_get(v, "id"), out);
	} else if (json_is_string(v)) {
		hg_buf_puts(out, json_string_value(v));
	} else if (json_is_null(v)) {
		hg_buf_puts(out, "-");
	} else if (json_is_array(v)) {
		hg_buf_putc(out, '[');
		for (size_t i = 0; i < json_array_size(v); i++) {
			if (i)
				hg_buf_puts(out, ", ");
			value_text(json_array_get(v, i), out);
		}
		hg_buf_putc(out, ']');
	} else {
		char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
		hg_buf_puts(out, s ? s : "?");
		free(s);
	}
}

/* A card as a position lists it: its id and what the id always means (its
 * symbols): named by the id alone. */
static int card_like(const json_t *v)
{
	return json_is_object(v) && json_is_string(json_object_get(v, "id")) &&
	       json_object_size(v) == 2 && json_object_get(v, "symbols");
}

static int plain_array(const json_t *v)
{
	for (size_t i = 0; i < json_array_size(v); i++) {
		const json_t *item = json_array_get(v, i);
		if ((json_is_object(item) && !card_like(item)) || json_is_array(item))
			return 0;
	}
	return 1;
}

/* An item of an array of objects is named by its id (or seat, sector or
 * stack) rather than its index, so that its path says what it is. */
static void item_name(const json_t *item, size_t i, hg_buf *out)
{
	static const char *const keys[] = { "id", "seat", "sector", "stack" };
	for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
		const json_t *v = json_object_get(item, keys[k]);
		if (v && (json_is_string(v) || json_is_integer(v))) {
			value_text(v, out);
			return;
		}
	}
	hg_buf_printf(out, "%zu", i + 1);
}

/* Flattens v into paths (in order) and their values' text (by path). */
static void flatten(const json_t *v, hg_buf *path, json_t *order, json_t *by_path)
{
	size_t len = path->len;
	if (json_is_object(v)) {
		const char *key;
		json_t *item;
		json_object_foreach((json_t *)v, key, item) {
			if (strcmp(key, "borders") == 0)
				continue;	/* the map: never changes */
			if (len)
				hg_buf_putc(path, '.');
			hg_buf_puts(path, key);
			flatten(item, path, order, by_path);
			path->len = len;
			path->data[len] = '\0';
		}
		return;
	}
	if (json_is_array(v) && json_array_size(v) == 0)
		return;		/* an empty list: its items come and go as "-" */
	if (json_is_array(v) && !plain_array(v)) {
		for (size_t i = 0; i < json_array_size(v); i++) {
			hg_buf_putc(path, '[');
			item_name(json_array_get(v, i), i, path);
			hg_buf_putc(path, ']');
			flatten(json_array_get(v, i), path, order, by_path);
			path->len = len;
			path->data[len] = '\0';
		}
		return;
	}
	hg_buf text;
	hg_buf_init(&text);
	value_text(v, &text);
	json_array_append_new(order, json_string(path->data ? path->data : ""));
	json_object_set_new(by_path, path->data ? path->data : "", json_string(text.data ? text.data : ""));
	hg_buf_free(&text);
}

void replay_json_changes(const json_t *before, const json_t *after, unsigned indent, hg_buf *out)
{
	json_t *order_b = json_array(), *by_b = json_object();
	json_t *order_a = json_array(), *by_a = json_object();
	hg_buf path;
	hg_buf_init(&path);
	flatten(before, &path, order_b, by_b);
	hg_buf_clear(&path);
	flatten(after, &path, order_a, by_a);
	hg_buf_free(&path);
	size_t shown = 0;
	for (size_t i = 0; i < json_array_size(order_a); i++) {
		const char *p = json_string_value(json_array_get(order_a, i));
		const char *now = json_string_value(json_object_get(by_a, p));
		const json_t *was = json_object_get(by_b, p);
		if (was && strcmp(json_string_value(was), now) == 0)
			continue;
		hg_buf_printf(out, "%*s%s: %s -> %s\n", (int)indent, "", p,
			      was ? json_string_value(was) : "-", now);
		shown++;
	}
	for (size_t i = 0; i < json_array_size(order_b); i++) {
		const char *p = json_string_value(json_array_get(order_b, i));
		if (!json_object_get(by_a, p)) {
			hg_buf_printf(out, "%*s%s: %s -> -\n", (int)indent, "", p,
				      json_string_value(json_object_get(by_b, p)));
			shown++;
		}
	}
	if (!shown)
		hg_buf_printf(out, "%*s(no change)\n", (int)indent, "");
	json_decref(order_a);
	json_decref(by_a);
	json_decref(order_b);
	json_decref(by_b);
}

/* ------------------------------------------------------------ the writer */
typedef struct jsonl_writer {
	replay_writer base;
	replay_opts opts;
	hg_buf *out;
} jsonl_writer;

static void put_line(jsonl_writer *w, json_t *o)
{
	char *text = json_dumps(o, JSON_PRESERVE_ORDER | JSON_COMPACT);
	if (text) {
		hg_buf_puts(w->out, text);
		hg_buf_putc(w->out, '\n');
		free(text);
	}
	json_decref(o);
}

static void jsonl_start(void *ctx, const hg_game_record *g, const hg_game_class *cls,
			const hg_state *start, const hg_diag **diags, size_t ndiags)
{
	jsonl_writer *w = ctx;
	json_t *o = replay_json_start(g, cls, start, w->base.index, w->base.path, diags, ndiags);
	if (w->base.as)
		json_object_set_new(o, "as", json_string(w->base.as));
	put_line(w, o);
}

static void jsonl_step(void *ctx, const hg_game_class *cls, const replay_step *st)
{
	jsonl_writer *w = ctx;
	if (replay_opts_shows(&w->opts, st->ply))
		put_line(w, replay_json_step(cls, st));
	replay_writer_flush(&w->base, w->out);
}

static void jsonl_end(void *ctx, const hg_game_record *g, const hg_game_class *cls,
		      const hg_state *final, const hg_diag **diags, size_t ndiags)
{
	jsonl_writer *w = ctx;
	put_line(w, replay_json_end(g, cls, final, diags, ndiags));
}

static int jsonl_finish(replay_writer *w)
{
	(void)w;
	return 0;
}

static void jsonl_free(replay_writer *w)
{
	free(w);
}

replay_writer *replay_jsonl_new(const replay_opts *o, hg_buf *out)
{
	jsonl_writer *w = cli_xcalloc(1, sizeof *w);
	w->opts = *o;
	w->out = out;
	w->base.sink = (replay_sink){ jsonl_start, jsonl_step, jsonl_end, w };
	w->base.finish = jsonl_finish;
	w->base.free = jsonl_free;
	return &w->base;
}
