/* convert-json-write.c - HGN records written as JSON, with jansson, in the
 * shape convert-json.c describes and reads back (normative:
 * grammar/herald-record.schema.json).  Each writer is one unit of work:
 * short of memory it returns HG_ENOMEM with its buffer as it was.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "record-reader.h"

/* A JSON string of s.  The model should hold UTF-8 only; any byte that is
 * not becomes U+FFFD rather than an invalid document. */
static json_t *jstr(const char *s)
{
	if (!s)
		s = "";
	size_t len = strlen(s);
	if (hg_utf8_invalid_at(s, len) == (size_t)-1)
		return json_stringn(s, len);
	hg_buf b;
	hg_buf_init(&b);
	size_t i = 0;
	while (i < len) {
		uint32_t cp;
		int n = hg_utf8_decode(s + i, len - i, &cp);
		if (n < 0) {
			hg_utf8_put(&b, 0xFFFD);
			i++;
		} else {
			hg_buf_putn(&b, s + i, (size_t)n);
			i += (size_t)n;
		}
	}
	json_t *j = json_stringn(b.data, b.len);
	hg_buf_free(&b);
	return j;
}

/* jansson's setters, a failure (the keys and values are valid: memory)
 * recorded in the writer's unit of work (util.c). */
static void set_new(json_t *o, const char *key, json_t *v)
{
	if (json_object_set_new(o, key, v) != 0)
		hg_alloc_failure();
}

static void append_new(json_t *a, json_t *v)
{
	if (json_array_append_new(a, v) != 0)
		hg_alloc_failure();
}

static json_t *line_json(const hg_line *l);

static json_t *node_json(const hg_node *n)
{
	json_t *o = json_object();
	switch (n->kind) {
	case HG_NODE_MOVENUM:
		set_new(o, "move", json_integer(n->number));
		break;
	case HG_NODE_ACTION:
		set_new(o, "seat", jstr(n->action.seat));
		set_new(o, "action", jstr(n->action.text));
		if (n->glyph)
			set_new(o, "glyph", jstr(n->glyph));
		break;
	case HG_NODE_COMMENT:
		set_new(o, "comment", jstr(n->comment));
		if (n->line_comment)
			set_new(o, "line", json_true());
		if (n->own_line)
			set_new(o, "own_line", json_true());
		break;
	case HG_NODE_NAG:
		set_new(o, "nag", json_integer(n->number));
		break;
	case HG_NODE_VARIATION:
		set_new(o, "variation", line_json(n->variation));
		break;
	}
	return o;
}

static json_t *line_json(const hg_line *l)
{
	json_t *a = json_array();
	for (size_t i = 0; l && i < l->n; i++)
		append_new(a, node_json(&l->nodes[i]));
	return a;
}

static json_t *game_json(const hg_game_record *g)
{
	json_t *o = json_object();
	json_t *tags = json_array();
	for (size_t i = 0; i < g->ntags; i++) {
		json_t *t = json_object();
		set_new(t, "name", jstr(g->tags[i].name));
		set_new(t, "value", jstr(g->tags[i].value));
		append_new(tags, t);
	}
	set_new(o, "tags", tags);
	if (g->header.n)
		set_new(o, "header", line_json(&g->header));
	set_new(o, "moves", line_json(&g->moves));
	set_new(o, "result", g->result ? jstr(g->result) : json_null());
	if (g->trailer.n)
		set_new(o, "trailer", line_json(&g->trailer));
	return o;
}

static int dump_to_buf(const char *buffer, size_t size, void *data)
{
	hg_buf_putn(data, buffer, size);
	return 0;
}

static void dump(json_t *j, hg_buf *out, size_t flags)
{
	if (hg_alloc_unit_failed() ||
	    json_dump_callback(j, dump_to_buf, out, flags | JSON_PRESERVE_ORDER) != 0)
		hg_alloc_failure();	/* (a tree with a hole is not written) */
	json_decref(j);
}

/* Appends the game object, without a final newline (a JSON Lines writer
 * adds it).  A unit of work (util.c). */
int hg_write_json_game(const hg_game_record *g, hg_buf *out, int pretty)
{
	hg_alloc_unit u;
	size_t len0 = out->len;
	hg_alloc_unit_begin(&u);
	dump(game_json(g), out, pretty ? JSON_INDENT(2) : JSON_COMPACT);
	return hg_write_unit_end(&u, out, len0);
}

/* Appends the whole document, pretty, ending in a newline. */
int hg_write_json(hg_game_record *const *games, size_t n, hg_buf *out)
{
	hg_alloc_unit u;
	size_t len0 = out->len;
	hg_alloc_unit_begin(&u);
	json_t *doc = json_object();
	set_new(doc, "herald", json_integer(HG_RECORD_FORMAT_VERSION));
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++)
		append_new(a, game_json(games[i]));
	set_new(doc, "games", a);
	dump(doc, out, JSON_INDENT(2));
	hg_buf_putc(out, '\n');
	return hg_write_unit_end(&u, out, len0);
}
