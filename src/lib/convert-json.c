/* convert-json.c - HGN records as JSON, with jansson.
 *
 * The shape (normative: grammar/herald-record.schema.json):
 *   {"herald": 1, "games": [GAME, ...]}
 *   GAME = {"tags": [{"name": N, "value": V}, ...], "header": [NODE, ...],
 *           "moves": [NODE, ...], "result": "P1" | "*" | null,
 *           "trailer": [NODE, ...]}          (empty header/trailer omitted)
 *   NODE = {"move": 12} | {"seat": "P1", "action": "draw c12", "glyph": "!"}
 *        | {"comment": "text"} | {"comment": "text", "line": true}
 *          (with "own_line": true, a move-text comment on lines of its own)
 *        | {"nag": 3} | {"variation": [NODE, ...]}
 * It carries the whole model, so HGN -> JSON -> HGN is lossless.
 *
 * jansson keeps no positions for values, so the reader names a bad value
 * by its JSON path (games[0].moves[3].seat); syntax errors get jansson's
 * line and column.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "internal.h"

#define FORMAT_VERSION 1
#define MAX_ERRORS 100		/* then the rest is not checked */

/* Characters of a string quoted in a message before it is cut short. */

static const char *const glyphs[] = { "!", "?", "!!", "??", "!?", "?!", NULL };

/* ------------------------------------------------------------------------
 * Writing.
 * ------------------------------------------------------------------------ */

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
	set_new(doc, "herald", json_integer(FORMAT_VERSION));
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++)
		append_new(a, game_json(games[i]));
	set_new(doc, "games", a);
	dump(doc, out, JSON_INDENT(2));
	hg_buf_putc(out, '\n');
	return hg_write_unit_end(&u, out, len0);
}

/* ------------------------------------------------------------------------
 * Reading: every shape error is reported (code hgn.json), naming the value
 * by its path; nothing is returned unless the whole document is good.
 * ------------------------------------------------------------------------ */
typedef struct reader {
	const char *name;
	hg_diags *d;
	hg_buf path;		/* of the value being read */
	int failed;
	hg_game_record *g;	/* being read */
	size_t actions;		/* in g, on every line */
	size_t elements;	/* in g: move numbers, comments, NAGs, variations */
	size_t errors_at_start;	/* d->nerrors before reading */
	int gave_up;		/* MAX_ERRORS reached: the rest is unchecked */
	int tags_over;		/* g has HG_MAX_TAGS tags: the rest is skipped */
} reader;

typedef enum line_kind { LINE_MOVES, LINE_COMMENTS } line_kind;

static hg_pos nowhere(const reader *r)
{
	hg_pos p = { r->g ? r->g->file : r->name, 0, 0 };
	return p;
}

static const char *where(const reader *r)
{
	return r->path.len ? r->path.data : "the document";
}

static size_t path_push_key(reader *r, const char *key)
{
	size_t mark = r->path.len;
	hg_buf_printf(&r->path, "%s%s", r->path.len ? "." : "", key);
	return mark;
}

static size_t path_push_index(reader *r, size_t i)
{
	size_t mark = r->path.len;
	hg_buf_printf(&r->path, "[%zu]", i);
	return mark;
}

/* Enough errors: stop checking (called between nodes, tags and games). */
static int too_many_errors(reader *r)
{
	if (r->d->nerrors - r->errors_at_start >= MAX_ERRORS)
		r->gave_up = 1;
	return r->gave_up;
}

static void path_pop(reader *r, size_t mark)
{
	r->path.len = mark;
	if (r->path.data)
		r->path.data[mark] = '\0';
}

static hg_diag *shape_error(reader *r, const char *fmt, ...) HG_PRINTF(2, 3);

static hg_diag *shape_error(reader *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	hg_diag *dg = hg_diag_vadd(r->d, HG_ERROR, nowhere(r), "hgn.json", fmt, ap);
	va_end(ap);
	r->failed = 1;
	return dg;
}

/* What a value is, for "found ...". */
static void found(hg_buf *b, const json_t *j)
{
	switch (json_typeof(j)) {
	case JSON_OBJECT: hg_buf_puts(b, "an object"); break;
	case JSON_ARRAY: hg_buf_puts(b, "an array"); break;
	case JSON_TRUE: hg_buf_puts(b, "true"); break;
	case JSON_FALSE: hg_buf_puts(b, "false"); break;
	case JSON_NULL: hg_buf_puts(b, "null"); break;
	case JSON_INTEGER:
		hg_buf_printf(b, "%" JSON_INTEGER_FORMAT, json_integer_value(j));
		break;
	case JSON_REAL:
		hg_buf_printf(b, "the number %g", json_real_value(j));
		break;
	case JSON_STRING:
		hg_buf_puts(b, "the string ");
		hg_quote(b, json_string_value(j));
		break;
	}
}

/* "expected <expected> for <path>, found <j>" */
static void mismatch(reader *r, const char *expected, const json_t *j)
{
	hg_buf b;
	hg_buf_init(&b);
	found(&b, j);
	shape_error(r, "expected %s for %s, found %s", expected, where(r), b.data);
	hg_buf_free(&b);
}

static const char *key_name(const char *spec)
{
	return spec[0] == '!' ? spec + 1 : spec;
}

/* The object has only the keys listed (a leading '!' marks a required
 * one).  Returns 0, or -1 after diagnostics. */
static int check_keys(reader *r, const json_t *o, const char *const *keys)
{
	int rc = 0;
	const char *key;
	json_t *v;
	json_object_foreach((json_t *)o, key, v) {
		size_t i = 0;
		while (keys[i] && strcmp(key_name(keys[i]), key) != 0)
			i++;
		if (keys[i])
			continue;
		hg_buf q, allowed;
		hg_buf_init(&q);
		hg_buf_init(&allowed);
		hg_quote(&q, key);
		for (i = 0; keys[i]; i++)
			hg_buf_printf(&allowed, "%s%s%s", i ? ", " : "", key_name(keys[i]),
				      keys[i][0] == '!' ? " (required)" : "");
		hg_diag *dg = shape_error(r, "unknown key %s in %s", q.data, where(r));
		hg_diag_note(dg, "the keys allowed here are: %s", allowed.data);
		hg_buf_free(&q);
		hg_buf_free(&allowed);
		rc = -1;
	}
	for (size_t i = 0; keys[i]; i++)
		if (keys[i][0] == '!' && !json_object_get(o, keys[i] + 1)) {
			shape_error(r, "missing key '%s' in %s", keys[i] + 1, where(r));
			rc = -1;
		}
	return rc;
}

/* The string at o[key], NULL after a diagnostic.  `flat`: the string
 * must not hold a line break (HGN strings cannot). */
static const char *get_string(reader *r, const json_t *o, const char *key, int flat)
{
	const json_t *j = json_object_get(o, key);
	if (!j)
		return NULL;	/* reported by check_keys() */
	size_t mark = path_push_key(r, key);
	const char *s = NULL;
	if (!json_is_string(j)) {
		mismatch(r, "a string", j);
	} else if (json_string_length(j) > HG_MAX_TOKEN) {
		shape_error(r, "the string for %s is longer than %d bytes", where(r), HG_MAX_TOKEN);
	} else if (flat && strchr(json_string_value(j), '\n')) {
		shape_error(r, "the string for %s holds a line break", where(r));
	} else if (hg_first_control(json_string_value(j)) >= 0) {
		shape_error(r, "the string for %s holds the control character U+%04lX", where(r),
			    (unsigned long)hg_first_control(json_string_value(j)));
	} else {
		s = json_string_value(j);
	}
	path_pop(r, mark);
	return s;
}

/* The integer at o[key] in [min, max]; 0 or -1 after a diagnostic. */
static int get_int(reader *r, const json_t *o, const char *key, json_int_t min,
		   json_int_t max, json_int_t *out)
{
	const json_t *j = json_object_get(o, key);
	if (!j)
		return -1;	/* reported by check_keys() */
	size_t mark = path_push_key(r, key);
	int rc = -1;
	hg_buf expected;
	hg_buf_init(&expected);
	hg_buf_printf(&expected, "an integer from %" JSON_INTEGER_FORMAT " to %"
		      JSON_INTEGER_FORMAT, min, max);
	/* JSON has numbers, not integers: 3.0 is 3, as for JSON Schema. */
	double x = json_number_value(j);
	if (!json_is_number(j) || x < (double)min || x > (double)max ||
	    (json_is_real(j) && x != (double)(json_int_t)x)) {
		mismatch(r, expected.data, j);
	} else {
		*out = json_is_integer(j) ? json_integer_value(j) : (json_int_t)x;
		rc = 0;
	}
	hg_buf_free(&expected);
	path_pop(r, mark);
	return rc;
}

static void read_line(reader *r, const json_t *a, hg_line *line, line_kind kind,
		      unsigned depth);

static void read_action(reader *r, const json_t *o, hg_node *n)
{
	static const char *const keys[] = { "!seat", "!action", "glyph", NULL };
	check_keys(r, o, keys);
	const char *seat = get_string(r, o, "seat", 1);
	const char *body = get_string(r, o, "action", 0);
	const json_t *glyph = json_object_get(o, "glyph");
	if (glyph) {
		size_t mark = path_push_key(r, "glyph");
		size_t i = 0;
		while (json_is_string(glyph) && glyphs[i] &&
		       strcmp(glyphs[i], json_string_value(glyph)) != 0)
			i++;
		if (json_is_string(glyph) && glyphs[i])
			n->glyph = hg_try_strdup(glyphs[i]);	/* (NULL: the unit fails) */
		else
			mismatch(r, "one of '!', '?', '!!', '?\?', '!?' or '?!'", glyph);
		path_pop(r, mark);
	}
	if (!seat || !body)
		return;
	if (++r->actions > HG_MAX_ACTIONS) {
		if (r->actions == HG_MAX_ACTIONS + 1)
			shape_error(r, "the game has more than %d actions", HG_MAX_ACTIONS);
		return;
	}
	/* The body is cut into tokens as the lexer would; its diagnostics
	 * keep their codes, placed in this file, with the path as a note. */
	hg_diags lex;
	hg_diags_init(&lex);
	if (hg_action_text_set(&n->action, seat, body, n->pos, &lex) != 0) {
		if (lex.n == 0)
			shape_error(r, "the action at %s cannot be read", where(r));
		for (size_t i = 0; i < lex.n; i++) {
			lex.v[i].line = lex.v[i].col = 0;
			hg_diag_note(&lex.v[i], "in the action at %s", where(r));
		}
		r->failed |= lex.nerrors > 0;
	}
	hg_diags_move(r->d, &lex);
	hg_diags_free(&lex);
}

static void read_comment(reader *r, const json_t *o, hg_node *n)
{
	static const char *const keys[] = { "!comment", "line", "own_line", NULL };
	check_keys(r, o, keys);
	const json_t *line = json_object_get(o, "line");
	if (line) {
		size_t mark = path_push_key(r, "line");
		if (json_is_boolean(line))
			n->line_comment = json_is_true(line);
		else
			mismatch(r, "true or false", line);
		path_pop(r, mark);
	}
	const json_t *own = json_object_get(o, "own_line");
	if (own) {
		size_t mark = path_push_key(r, "own_line");
		if (json_is_boolean(own))
			n->own_line = json_is_true(own);
		else
			mismatch(r, "true or false", own);
		path_pop(r, mark);
	}
	const char *text = get_string(r, o, "comment", n->line_comment);
	if (!text)
		return;
	if (!n->line_comment && strchr(text, '}')) {
		size_t mark = path_push_key(r, "comment");
		shape_error(r, "the brace comment at %s holds a '}'", where(r));
		path_pop(r, mark);
		return;
	}
	n->comment = hg_try_strdup(text);	/* (NULL: the unit fails) */
}

/* The kinds of node, each known by one key. */
static const char *const node_keys[] = { "move", "seat", "comment", "nag", "variation", NULL };

/* A node of `line`.  *streamed, when not NULL, is the variation's line,
 * read already (the stream reader reads a variation's nodes one by one,
 * and o holds an empty array in its place): the node takes it, setting
 * *streamed to NULL, when it is a variation. */
static void read_node(reader *r, const json_t *o, hg_line *line, line_kind lk,
		      unsigned depth, hg_line **streamed)
{
	if (!json_is_object(o)) {
		mismatch(r, "an object", o);
		return;
	}
	int kind = -1, nkinds = 0;
	for (int i = 0; node_keys[i]; i++)
		if (json_object_get(o, node_keys[i]) ||
		    (i == 1 && json_object_get(o, "action"))) {
			if (nkinds++ == 0)
				kind = i;
			else
				shape_error(r, "%s has both '%s' and '%s': a node is one thing",
				      where(r), node_keys[kind], node_keys[i]);
		}
	if (nkinds == 0) {
		hg_diag *dg = shape_error(r, "%s is not a node", where(r));
		hg_diag_note(dg, "a node has one of the keys 'move', 'seat' (with 'action'), "
			     "'comment', 'nag' or 'variation'");
		return;
	}
	if (nkinds > 1)
		return;
	if (lk == LINE_COMMENTS && kind != 2) {
		shape_error(r, "expected a comment for %s, found a '%s' node: the header and "
		      "the trailer hold comments only", where(r), node_keys[kind]);
		return;
	}
	/* each costs a node, as in HGN (herald-notation(5), LIMITS) */
	if (kind != 1 && ++r->elements > HG_MAX_ELEMENTS) {
		if (r->elements == HG_MAX_ELEMENTS + 1)
			shape_error(r, "the game has more than %d move numbers, comments, NAGs and variations",
				    HG_MAX_ELEMENTS);
		return;
	}
	hg_node *n;
	json_int_t v;
	switch (kind) {
	case 0: {
		static const char *const keys[] = { "!move", NULL };
		n = hg_line_try_push(line, HG_NODE_MOVENUM, nowhere(r));
		if (!n)
			return;	/* (the unit of work fails) */
		check_keys(r, o, keys);
		if (get_int(r, o, "move", 0, UINT_MAX, &v) == 0)
			n->number = (unsigned)v;
		break;
	}
	case 1:
		n = hg_line_try_push(line, HG_NODE_ACTION, nowhere(r));
		if (!n)
			return;	/* (the unit of work fails) */
		read_action(r, o, n);
		break;
	case 2:
		n = hg_line_try_push(line, HG_NODE_COMMENT, nowhere(r));
		if (!n)
			return;	/* (the unit of work fails) */
		read_comment(r, o, n);
		break;
	case 3: {
		static const char *const keys[] = { "!nag", NULL };
		n = hg_line_try_push(line, HG_NODE_NAG, nowhere(r));
		if (!n)
			return;	/* (the unit of work fails) */
		check_keys(r, o, keys);
		if (get_int(r, o, "nag", 0, 255, &v) == 0)
			n->number = (unsigned)v;
		break;
	}
	default: {
		static const char *const keys[] = { "!variation", NULL };
		check_keys(r, o, keys);
		if (depth >= HG_MAX_NESTING) {
			shape_error(r, "variations nested more than %d deep at %s", HG_MAX_NESTING,
			      where(r));
			return;
		}
		n = hg_line_try_push(line, HG_NODE_VARIATION, nowhere(r));
		if (!n)
			return;	/* (the unit of work fails) */
		if (streamed && *streamed) {
			n->variation = *streamed;
			*streamed = NULL;
			break;
		}
		n->variation = hg_line_try_new();
		if (!n->variation)
			return;	/* (the unit of work fails) */
		size_t mark = path_push_key(r, "variation");
		read_line(r, json_object_get(o, "variation"), n->variation, LINE_MOVES,
			  depth + 1);
		path_pop(r, mark);
		break;
	}
	}
}

static void read_line(reader *r, const json_t *a, hg_line *line, line_kind kind,
		      unsigned depth)
{
	if (!json_is_array(a)) {
		mismatch(r, "an array", a);
		return;
	}
	size_t i;
	const json_t *o;
	json_array_foreach((json_t *)a, i, o) {
		if (too_many_errors(r))
			return;
		size_t mark = path_push_index(r, i);
		read_node(r, o, line, kind, depth, NULL);
		path_pop(r, mark);
	}
}

/* One element of "tags" (its path pushed). */
static void read_tag(reader *r, const json_t *o)
{
	static const char *const keys[] = { "!name", "!value", NULL };
	hg_game_record *g = r->g;
	if (!json_is_object(o)) {
		mismatch(r, "an object", o);
		return;
	}
	if (check_keys(r, o, keys) != 0)
		return;
	const char *name = get_string(r, o, "name", 1);
	const char *value = get_string(r, o, "value", 1);
	if (name && !hg_tag_name_ok(name, strlen(name))) {
		size_t m = path_push_key(r, "name");
		hg_buf q;
		hg_buf_init(&q);
		hg_quote(&q, name);
		hg_diag *dg = shape_error(r, "%s at %s is not a tag name", q.data, where(r));
		hg_diag_note(dg, "a tag name is an ASCII letter followed by ASCII "
			     "letters, digits and '_'");
		hg_buf_free(&q);
		path_pop(r, m);
	} else if (name && value && g->ntags >= HG_MAX_TAGS) {
		shape_error(r, "more than %d tags in one game, at %s", HG_MAX_TAGS, where(r));
		r->tags_over = 1;	/* the rest of the tags is not read */
	} else if (name && value) {
		/* Appended, not set: the model keeps every tag as
		 * written, repeats included, for the checker. */
		char *tn = hg_try_strdup(name), *tv = hg_try_strdup(value);
		if (!tn || !tv || HG_TRY_GROW(g->tags, g->captags, g->ntags + 1) != 0) {
			free(tn);	/* (the unit of work fails) */
			free(tv);
			return;
		}
		hg_tag *t = &g->tags[g->ntags++];
		t->name = tn;
		t->value = tv;
		t->pos = nowhere(r);
	}
}

/* ------------------------------------------------------------------------
 * Reading a stream, game by game.  jansson decodes one value at a time
 * (JSON_DISABLE_EOF_CHECK): the keys and values of the outer object, and
 * each game of "games" on its own, so memory holds one game, never the
 * document.  Here only the punctuation between those values is read --
 * white space, '{', ':', ',', '[', ']' and '}' -- and every value is
 * jansson's.
 * ------------------------------------------------------------------------ */
#define WINDOW (64 * 1024)	/* bytes read from a stream at a time */
#define KEPT 8			/* kept before the window's start on a refill */
/* The longest value of the outer object other than "games" (the version). */
#define MAX_OUTER_VALUE 4096

typedef struct source {
	FILE *fp;			/* NULL: a memory block */
	unsigned char *win;		/* a stream's window: KEPT + WINDOW bytes */
	const unsigned char *p, *end;	/* unread */
	int at_eof, io_error, err;
	unsigned line, col;		/* of *p, from 1 (col counts characters) */
	unsigned col_before_lf;		/* col of the last line feed taken */
	/* the value jansson is decoding */
	size_t given, cap;		/* bytes handed to it; the most it may have */
	int bytewise;			/* how it is handed (see source_give) */
	int capped;			/* it wanted more than cap */
	uint64_t taken;			/* bytes moved past, in all */
} source;

/* OUTER_LINES: JSON Lines, a game object on each line, no outer object. */
enum { OUTER_START, OUTER_GAMES, OUTER_LINES, OUTER_DONE };

struct hg_json_reader {
	char *name;
	source src;
	reader r;
	int state;
	size_t index;		/* of the next game */
	uint64_t game_start;	/* src.taken at the game's '{' */
	hg_pos key_end;		/* the last character of the key last read */
	int seen_herald, seen_games;
	size_t errors;		/* reported so far, for MAX_ERRORS */
	unsigned end_line;	/* JSON Lines: the line the last game ended on */
};

/* Refills the window; 0 at the end of the input (or on a read error). */
static int source_fill(source *s)
{
	if (!s->fp || s->at_eof)
		return 0;
	/* The last bytes stay: a value's decoding may give one back. */
	size_t keep = (size_t)(s->end - s->win);
	if (keep > KEPT)
		keep = KEPT;
	memmove(s->win, s->end - keep, keep);
	size_t got = fread(s->win + keep, 1, WINDOW, s->fp);
	if (got == 0) {
		if (ferror(s->fp)) {
			s->io_error = 1;
			s->err = errno;
		}
		s->at_eof = 1;
	}
	s->p = s->win + keep;
	s->end = s->p + got;
	return got > 0;
}

static int source_peek(source *s)
{
	if (s->p == s->end && !source_fill(s))
		return EOF;
	return *s->p;
}

/* Moves past one byte, counting lines and characters. */
static void source_step(source *s)
{
	unsigned char c = *s->p++;
	s->taken++;
	if (c == '\n') {
		s->col_before_lf = s->col;
		s->line++;
		s->col = 1;
	} else if ((c & 0xC0) != 0x80) {
		s->col++;
	}
}

static int source_skip_space(source *s)
{
	int c;
	while ((c = source_peek(s)) == ' ' || c == '\t' || c == '\n' || c == '\r')
		source_step(s);
	return c;
}

/* jansson's reader.  An object ends at a '}', so up to the next '}' is
 * handed at once, and never more than the object; a scalar is handed a
 * byte at a time, as jansson reads one byte past it and gives it back. */
static size_t source_give(void *buf, size_t buflen, void *data)
{
	source *s = data;
	if (s->given >= s->cap) {
		s->capped = 1;
		return 0;
	}
	if (s->p == s->end && !source_fill(s))
		return 0;
	size_t n = (size_t)(s->end - s->p);
	if (n > buflen)
		n = buflen;
	if (n > s->cap - s->given)
		n = s->cap - s->given;
	if (s->bytewise == '"') {
		/* a string ends at a '"' (at the first unescaped one: when this
		 * one is escaped, jansson asks again) */
		const unsigned char *quote = memchr(s->p, '"', n);
		if (quote)
			n = (size_t)(quote - s->p) + 1;
	} else if (s->bytewise) {
		n = 1;
	} else {
		const unsigned char *close = memchr(s->p, '}', n);
		if (close)
			n = (size_t)(close - s->p) + 1;
	}
	memcpy(buf, s->p, n);
	for (size_t i = 0; i < n; i++)
		source_step(s);
	s->given += n;
	return n;
}

/* Gives back the last n bytes handed (n is small: they are in the window). */
static void source_unread(source *s, size_t n)
{
	s->taken -= n;
	while (n--) {
		unsigned char c = *--s->p;
		if (c == '\n') {
			s->line--;
			s->col = s->col_before_lf;
		} else if ((c & 0xC0) != 0x80) {
			s->col--;
		}
	}
}

static hg_pos source_pos(const hg_json_reader *jr)
{
	hg_pos pos = { jr->name, jr->src.line, jr->src.col };
	return pos;
}

/* A syntax error: the document cannot be read on. */
static void syntax_error(hg_json_reader *jr, hg_pos pos, const char *fmt, ...) HG_PRINTF(3, 4);

static void syntax_error(hg_json_reader *jr, hg_pos pos, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	hg_diag_vadd(jr->r.d, HG_ERROR, pos, "hgn.json", fmt, ap);
	va_end(ap);
	jr->r.failed = 1;
	jr->state = OUTER_DONE;
}

static json_t *decode_capped(hg_json_reader *jr, size_t cap, const char *what,
			     size_t shown_cap);

/* The next value, at most `cap` bytes: NULL after a diagnostic.  `what`
 * names it in the message when it is longer. */
static json_t *decode_value(hg_json_reader *jr, size_t cap, const char *what)
{
	return decode_capped(jr, cap, what, cap);
}

/* The same, the message saying that `what` is longer than shown_cap (a
 * value of a game may have less than the game's limit left). */
static json_t *decode_capped(hg_json_reader *jr, size_t cap, const char *what,
			     size_t shown_cap)
{
	source *s = &jr->src;
	unsigned line0 = s->line, col0 = s->col;
	s->given = 0;
	s->cap = cap;
	s->capped = 0;
	int first = source_peek(s);
	/* an object up to a '}', a string a quote at a time (its opening
	 * one, then up to each next), anything else a byte at a time */
	s->bytewise = first == '{' ? 0 : first == '"' ? '"' : 1;
	json_error_t err;
	json_t *v = json_load_callback(source_give, s,
				       JSON_DISABLE_EOF_CHECK | JSON_DECODE_ANY |
					       JSON_REJECT_DUPLICATES,
				       &err);
	if (v) {
		if (err.position >= 0 && s->given > (size_t)err.position)
			source_unread(s, s->given - (size_t)err.position);
		return v;
	}
	hg_pos pos = { jr->name, line0, col0 };
	if (s->capped) {
		syntax_error(jr, pos, "%s is longer than %zu bytes", what, shown_cap);
	} else if (s->io_error) {
		pos.line = pos.col = 0;
		hg_diag_add(jr->r.d, HG_ERROR, pos, "hgn.io-error", "read error: %s",
			    strerror(s->err));
		jr->r.failed = 1;
		jr->state = OUTER_DONE;
	} else if (json_error_code(&err) == json_error_out_of_memory || !err.text[0]) {
		/* jansson ran out of memory (it gives no text for some of its
		 * allocations): the reader's unit of work ends in HG_ENOMEM */
		hg_alloc_failure();
		jr->state = OUTER_DONE;
	} else {
		if (err.line > 0) {
			pos.line = line0 + (unsigned)err.line - 1;
			pos.col = err.line == 1 ? col0 + (unsigned)(err.column > 0 ? err.column - 1 : 0)
						: (unsigned)(err.column > 0 ? err.column : 0);
		}
		syntax_error(jr, pos, "%s", err.text);
	}
	return NULL;
}

/* A syntax error at the next character, worded as jansson's: "<what>
 * expected near '<it>'", or "near end of file" at the last character. */
static void unexpected(hg_json_reader *jr, const char *what)
{
	hg_pos pos = source_pos(jr);
	int c = source_peek(&jr->src);
	if (c == EOF && jr->src.io_error) {
		pos.line = pos.col = 0;
		hg_diag_add(jr->r.d, HG_ERROR, pos, "hgn.io-error", "read error: %s",
			    strerror(jr->src.err));
		jr->r.failed = 1;
		jr->state = OUTER_DONE;
	} else if (c == EOF) {
		pos.col--;
		syntax_error(jr, pos, "%s expected near end of file", what);
	} else if (c > ' ' && c < 0x7f) {
		syntax_error(jr, pos, "%s expected near '%c'", what, c);
	} else {
		syntax_error(jr, pos, "%s expected", what);
	}
}

/* Expects the punctuation `c` after white space; 0, or -1 after a diagnostic. */
static int expect(hg_json_reader *jr, int c, const char *what)
{
	int got = source_skip_space(&jr->src);
	if (got == c) {
		source_step(&jr->src);
		return 0;
	}
	unexpected(jr, what);
	return -1;
}

/* ------------------------------------------------------------------------
 * Reading a game as a stream.  jansson's tree of a value costs far more
 * than its text (an empty object some 230 bytes), so a game is not
 * decoded whole: its object, its "tags", its lines ("header", "moves",
 * "trailer") and the objects of its nodes, variations included, are read
 * here member by member and element by element, and jansson decodes only
 * the scalars among them.  A member that should be a scalar and is an
 * object or array is skipped unread, and read_* is shown an empty one in
 * its place (its messages say "found an object", never what is in it).
 * Memory then holds the record being built and one scalar, a small
 * constant times the text read.
 * ------------------------------------------------------------------------ */
static int halted(const hg_json_reader *jr)
{
	return jr->state == OUTER_DONE || jr->r.gave_up;
}

/* The game is longer than HG_MAX_GAME: said (a syntax error: the rest of
 * the document is not read), 1; else 0. */
static int game_overrun(hg_json_reader *jr)
{
	if (jr->src.taken - jr->game_start <= HG_MAX_GAME)
		return 0;
	hg_pos pos = source_pos(jr);
	syntax_error(jr, pos, "games[%zu] is longer than %d bytes", jr->index, HG_MAX_GAME);
	return 1;
}

/* What is left of the game's limit. */
static size_t game_left(const hg_json_reader *jr)
{
	uint64_t used = jr->src.taken - jr->game_start;
	return used >= HG_MAX_GAME ? 0 : (size_t)(HG_MAX_GAME - used);
}

/* Moves past the value that begins here, unread: a string, a scalar, or
 * an object or array of any nesting (brackets counted, strings skipped).
 * 0, or -1 after a diagnostic. */
static int skip_value(hg_json_reader *jr)
{
	source *s = &jr->src;
	size_t depth = 0;
	int in_string = 0, escaped = 0;
	int c = source_skip_space(s);
	if (c != '"' && c != '{' && c != '[') {
		/* a number, true, false or null: up to what ends it */
		while ((c = source_peek(s)) != EOF && !strchr(",]} \t\r\n", c))
			source_step(s);
		return 0;
	}
	do {
		c = source_peek(s);
		if (c == EOF) {
			unexpected(jr, in_string ? "'\"'" : "'}' or ']'");
			return -1;
		}
		source_step(s);
		if (in_string) {
			if (escaped)
				escaped = 0;
			else if (c == '\\')
				escaped = 1;
			else if (c == '"')
				in_string = 0;
		} else if (c == '"') {
			in_string = 1;
		} else if (c == '{' || c == '[') {
			depth++;
		} else if (c == '}' || c == ']') {
			depth--;
		}
		if ((s->taken & 0xffff) == 0 && game_overrun(jr))
			return -1;
	} while (depth > 0 || in_string);
	return game_overrun(jr) ? -1 : 0;
}

/* The value that begins here where a scalar is expected: jansson's
 * decoding of a scalar, or an empty object or array in place of one
 * (skipped).  NULL after a diagnostic. */
static json_t *scalar_or_stub(hg_json_reader *jr)
{
	int c = source_skip_space(&jr->src);
	if (c == '{' || c == '[') {
		if (skip_value(jr) != 0)
			return NULL;
		json_t *stub = c == '{' ? json_object() : json_array();
		if (!stub)
			hg_alloc_failure();
		return stub;
	}
	char what[64];
	snprintf(what, sizeof what, "games[%zu]", jr->index);
	json_t *v = decode_capped(jr, game_left(jr), what, HG_MAX_GAME);
	return v;
}

/* A key of printable ASCII without escapes, whole in the window, taken
 * as it is (the keys of a record are such); else NULL, and jansson
 * decodes it. */
static char *plain_key(source *s)
{
	const unsigned char *q = s->p + 1;
	while (q < s->end && *q >= 0x20 && *q < 0x7f && *q != '"' && *q != '\\')
		q++;
	if (q == s->end || *q != '"' || q - s->p > MAX_OUTER_VALUE)
		return NULL;
	char *key = hg_try_strndup((const char *)s->p + 1, (size_t)(q - s->p - 1));
	if (!key)
		return NULL;	/* (the unit of work fails) */
	while (s->p <= q)
		source_step(s);
	return key;
}

/* Object members, one by one: at the '{' (taken), then after each member.
 * 1 with the next key in *key (the caller frees it) and the source at its
 * value; 0 at the '}' (taken); -1 after a diagnostic.  `first`: no member
 * read yet. */
static int next_member(hg_json_reader *jr, int first, char **key)
{
	*key = NULL;
	int c = source_skip_space(&jr->src);
	if (c == '}') {
		source_step(&jr->src);
		return 0;
	}
	if (!first && expect(jr, ',', "',' or '}'") != 0)
		return -1;
	if (source_skip_space(&jr->src) != '"') {
		unexpected(jr, "string or '}'");
		return -1;
	}
	*key = plain_key(&jr->src);
	if (!*key) {
		json_t *k = decode_value(jr, MAX_OUTER_VALUE, "a key");
		if (!k)
			return -1;
		*key = hg_try_strdup(json_string_value(k));
		json_decref(k);
		if (!*key)
			return -1;	/* (the unit of work fails) */
	}
	jr->key_end = source_pos(jr);
	jr->key_end.col--;
	if (expect(jr, ':', "':'") != 0) {
		free(*key);
		*key = NULL;
		return -1;
	}
	source_skip_space(&jr->src);
	return game_overrun(jr) ? -1 : 1;
}

/* Array elements, one by one: 1 at the next element, 0 at the ']'
 * (taken), -1 after a diagnostic. */
static int next_element(hg_json_reader *jr, size_t i)
{
	int c = source_skip_space(&jr->src);
	if (c == ']') {
		source_step(&jr->src);
		return 0;
	}
	if (i > 0 && expect(jr, ',', "',' or ']'") != 0)
		return -1;
	source_skip_space(&jr->src);
	return game_overrun(jr) ? -1 : 1;
}

/* A key seen twice in one object: a syntax error, where and as jansson
 * says it.  `seen` has a bit for each of keys[]. */
static int duplicate_key(hg_json_reader *jr, const char *const *keys, const char *key,
			 unsigned *seen)
{
	for (unsigned i = 0; keys[i]; i++)
		if (strcmp(key_name(keys[i]), key) == 0) {
			if (*seen & 1u << i) {
				syntax_error(jr, jr->key_end, "duplicate object key near '\"%s\"'",
					     key);
				return 1;
			}
			*seen |= 1u << i;
		}
	return 0;
}

static void stream_line(hg_json_reader *jr, hg_line *line, line_kind kind, unsigned depth);

/* A node's object, its '{' next: its scalars (and stubs) in a new object;
 * a "variation" array is read into *variation (NULL unless one was).
 * NULL after a syntax error. */
static json_t *stream_node_object(hg_json_reader *jr, unsigned depth, hg_line **variation)
{
	static const char *const keys[] = { "move", "seat", "action", "glyph", "comment",
					     "line", "nag", "variation", NULL };
	*variation = NULL;
	json_t *o = json_object();
	if (!o)
		hg_alloc_failure();	/* (then no member is kept) */
	unsigned seen = 0;
	source_step(&jr->src);	/* '{' */
	char *key;
	int rc;
	for (int first = 1; (rc = next_member(jr, first, &key)) == 1; first = 0) {
		json_t *v = NULL;
		if (duplicate_key(jr, keys, key, &seen)) {
			free(key);
			break;
		}
		if (strcmp(key, "variation") == 0 && source_peek(&jr->src) == '[' &&
		    depth < HG_MAX_NESTING && !*variation) {
			size_t mark = path_push_key(&jr->r, "variation");
			*variation = hg_line_try_new();
			if (*variation)
				stream_line(jr, *variation, LINE_MOVES, depth + 1);
			path_pop(&jr->r, mark);
			v = *variation ? json_array() : NULL;
			if (!v)
				hg_alloc_failure();
		} else {
			v = scalar_or_stub(jr);
		}
		if (v)
			set_new(o, key, v);
		free(key);
		if (!v || halted(jr))
			break;
	}
	if (rc != 0 || halted(jr) || !o) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* A line's array, its '[' next, node by node into `line`. */
static void stream_line(hg_json_reader *jr, hg_line *line, line_kind kind, unsigned depth)
{
	reader *r = &jr->r;
	source_step(&jr->src);	/* '[' */
	for (size_t i = 0; next_element(jr, i) == 1; i++) {
		if (too_many_errors(r))
			return;
		size_t mark = path_push_index(r, i);
		hg_line *variation = NULL;
		json_t *o = source_peek(&jr->src) == '{'
				    ? stream_node_object(jr, depth, &variation)
				    : scalar_or_stub(jr);
		if (o)
			read_node(r, o, line, kind, depth, &variation);
		if (variation) {	/* not taken: the node was no variation */
			hg_line_free(variation);
			free(variation);
		}
		json_decref(o);
		path_pop(r, mark);
		if (!o || halted(jr))
			return;
	}
}

/* The "tags" array, its '[' next, tag by tag. */
static void stream_tags(hg_json_reader *jr)
{
	static const char *const keys[] = { "name", "value", NULL };
	reader *r = &jr->r;
	source_step(&jr->src);	/* '[' */
	for (size_t i = 0; next_element(jr, i) == 1; i++) {
		if (too_many_errors(r))
			return;
		if (r->tags_over) {
			if (skip_value(jr) != 0)
				return;
			continue;
		}
		size_t mark = path_push_index(r, i);
		json_t *o = NULL;
		if (source_peek(&jr->src) == '{') {
			o = json_object();
			unsigned seen = 0;
			source_step(&jr->src);
			char *key;
			int rc;
			for (int first = 1; (rc = next_member(jr, first, &key)) == 1; first = 0) {
				json_t *v = duplicate_key(jr, keys, key, &seen) ? NULL
									 : scalar_or_stub(jr);
				if (v)
					json_object_set_new(o, key, v);
				free(key);
				if (!v)
					break;
			}
			if (rc != 0) {
				json_decref(o);
				o = NULL;
			}
		} else {
			o = scalar_or_stub(jr);
		}
		if (o)
			read_tag(r, o);
		json_decref(o);
		path_pop(r, mark);
		if (!o || halted(jr))
			return;
	}
}

/* A game, its first character next: the record (with what is wrong with
 * it in the diagnostics), or NULL when it is not an object or after a
 * syntax error. */
static hg_game_record *stream_game(hg_json_reader *jr)
{
	static const char *const keys[] = { "!tags", "header", "!moves", "!result",
					     "trailer", NULL };
	reader *r = &jr->r;
	if (source_peek(&jr->src) != '{') {
		json_t *v = scalar_or_stub(jr);
		if (v)
			mismatch(r, "an object", v);
		json_decref(v);
		return NULL;
	}
	hg_game_record *g = hg_record_try_new(r->name);
	if (!g) {	/* (the unit of work fails) */
		jr->state = OUTER_DONE;
		return NULL;
	}
	g->pos.line = g->pos.col = 0;
	r->g = g;
	r->actions = 0;
	r->elements = 0;
	/* each member as met; what is missing or unknown is said at the end,
	 * from `present` (the scalars, and stubs for the rest) */
	json_t *present = json_object();
	if (!present)
		hg_alloc_failure();	/* (then no member is kept) */
	unsigned seen = 0;
	source_step(&jr->src);	/* '{' */
	char *key;
	int rc;
	for (int first = 1; (rc = next_member(jr, first, &key)) == 1; first = 0) {
		if (duplicate_key(jr, keys, key, &seen)) {
			free(key);
			break;
		}
		size_t mark = path_push_key(r, key);
		hg_line *line = strcmp(key, "header") == 0 ? &g->header
			      : strcmp(key, "moves") == 0 ? &g->moves
			      : strcmp(key, "trailer") == 0 ? &g->trailer : NULL;
		json_t *v = NULL;
		if (source_peek(&jr->src) == '[' && line) {
			stream_line(jr, line, line == &g->moves ? LINE_MOVES : LINE_COMMENTS, 0);
			v = json_array();
			if (!v)
				hg_alloc_failure();
		} else if (source_peek(&jr->src) == '[' && strcmp(key, "tags") == 0) {
			stream_tags(jr);
			v = json_array();
			if (!v)
				hg_alloc_failure();
		} else {
			v = scalar_or_stub(jr);
			if (v && line)
				read_line(r, v, line, LINE_MOVES, 0);	/* says what it is */
			else if (v && strcmp(key, "tags") == 0)
				mismatch(r, "an array", v);
		}
		path_pop(r, mark);
		if (v)
			set_new(present, key, v);
		free(key);
		if (!v || halted(jr))
			break;
	}
	if (rc == 0 && !halted(jr)) {
		check_keys(r, present, keys);
		const json_t *result = json_object_get(present, "result");
		if (result && !json_is_null(result)) {
			const char *str = get_string(r, present, "result", 1);
			if (str)
				g->result = hg_try_strdup(str);	/* (NULL: the unit fails) */
		}
	}
	json_decref(present);
	g->result_pos = nowhere(r);
	r->g = NULL;
	if (jr->state == OUTER_DONE && !r->gave_up) {
		/* a syntax error: the game is not a game */
		hg_record_free(g);
		return NULL;
	}
	return g;
}

/* The outer object's members up to the games' '[' (state OUTER_GAMES) or
 * to its end (the document checked, state OUTER_DONE). */
static void read_outer(hg_json_reader *jr, int first)
{
	reader *r = &jr->r;
	for (;;) {
		if (source_skip_space(&jr->src) == '}') {
			source_step(&jr->src);
			break;
		}
		if (!first && expect(jr, ',', "',' or '}'") != 0)
			return;
		first = 0;
		source_skip_space(&jr->src);
		hg_pos key_pos = source_pos(jr);
		if (source_peek(&jr->src) != '"') {
			unexpected(jr, "string or '}'");
			return;
		}
		json_t *key = decode_value(jr, MAX_OUTER_VALUE, "a key");
		if (!key)
			return;
		char *name = hg_try_strdup(json_string_value(key));
		json_decref(key);
		if (!name) {	/* (the unit of work fails) */
			jr->state = OUTER_DONE;
			return;
		}
		int *seen = strcmp(name, "games") == 0 ? &jr->seen_games
			    : strcmp(name, "herald") == 0 ? &jr->seen_herald : NULL;
		if (seen && *seen) {
			/* where and as jansson says it: at the key's last character */
			key_pos = source_pos(jr);
			key_pos.col--;
			syntax_error(jr, key_pos, "duplicate object key near '\"%s\"'", name);
			free(name);
			return;
		}
		if (expect(jr, ':', "':'") != 0) {
			free(name);
			return;
		}
		if (seen == &jr->seen_games) {
			free(name);
			jr->seen_games = 1;
			source_skip_space(&jr->src);
			if (source_peek(&jr->src) == '[') {
				source_step(&jr->src);
				jr->state = OUTER_GAMES;
				return;
			}
			json_t *v = decode_value(jr, MAX_OUTER_VALUE, "the value of 'games'");
			if (!v)
				return;
			size_t mark = path_push_key(r, "games");
			mismatch(r, "an array", v);
			path_pop(r, mark);
			json_decref(v);
			continue;
		}
		source_skip_space(&jr->src);
		json_t *v = decode_value(jr, MAX_OUTER_VALUE, "a value of the document");
		if (!v) {
			free(name);
			return;
		}
		if (seen) {
			jr->seen_herald = 1;
			size_t mark = path_push_key(r, "herald");
			if (!json_is_integer(v))
				mismatch(r, "the format version 1", v);
			else if (json_integer_value(v) != FORMAT_VERSION)
				/* one format string, which xgettext can read (it cannot
				 * expand JSON_INTEGER_FORMAT) */
				shape_error(r, "unsupported format version %lld (this herald reads version %d)",
					    (long long)json_integer_value(v), FORMAT_VERSION);
			path_pop(r, mark);
		} else {
			hg_buf q;
			hg_buf_init(&q);
			hg_quote(&q, name);
			hg_diag *dg = shape_error(r, "unknown key %s in the document", q.data);
			hg_diag_note(dg, "the keys allowed here are: herald (required), games (required)");
			hg_buf_free(&q);
		}
		json_decref(v);
		free(name);
	}
	/* The end of the outer object: nothing may follow it. */
	if (source_skip_space(&jr->src) != EOF) {
		unexpected(jr, "end of file");
		return;
	}
	if (!jr->seen_herald)
		shape_error(r, "missing key 'herald' in the document");
	if (!jr->seen_games)
		shape_error(r, "missing key 'games' in the document");
	jr->state = OUTER_DONE;
}

/* A reader, or NULL when there is no memory for it. */
static hg_json_reader *json_reader_new(const char *name)
{
	hg_json_reader *jr = hg_try_calloc(1, sizeof *jr);
	if (jr)
		jr->name = hg_try_strdup(name ? name : "-");
	if (!jr || !jr->name) {
		free(jr);
		return NULL;
	}
	jr->r.name = jr->name;
	hg_buf_init(&jr->r.path);
	jr->src.line = jr->src.col = 1;
	return jr;
}

hg_json_reader *hg_json_reader_open(const char *name, FILE *fp)
{
	hg_json_reader *jr = json_reader_new(name);
	if (jr)
		jr->src.win = hg_try_malloc(KEPT + WINDOW);
	if (!jr || !jr->src.win) {
		hg_json_reader_close(jr);
		return NULL;
	}
	jr->src.fp = fp;
	jr->src.p = jr->src.end = jr->src.win;
	return jr;
}

hg_json_reader *hg_jsonl_reader_open(const char *name, FILE *fp)
{
	hg_json_reader *jr = hg_json_reader_open(name, fp);
	if (jr)
		jr->state = OUTER_LINES;
	return jr;
}

hg_json_reader *hg_json_reader_open_mem(const char *name, const char *text, size_t len)
{
	hg_json_reader *jr = json_reader_new(name);
	if (!jr)
		return NULL;
	jr->src.p = (const unsigned char *)text;
	jr->src.end = jr->src.p + len;
	jr->src.at_eof = 1;
	return jr;
}

void hg_json_reader_close(hg_json_reader *jr)
{
	if (!jr)
		return;
	free(jr->src.win);
	hg_buf_free(&jr->r.path);
	free(jr->name);
	free(jr);
}

static int json_reader_next(hg_json_reader *jr, hg_game_record **g, hg_diags *d);

/* A unit of work (util.c): after HG_ENOMEM the reader is done. */
int hg_json_reader_next(hg_json_reader *jr, hg_game_record **g, hg_diags *d)
{
	hg_alloc_unit u;
	size_t ndiags = d->n;
	hg_alloc_unit_begin(&u);
	int rc = json_reader_next(jr, g, d);
	if (hg_alloc_unit_failed()) {
		hg_record_free(*g);
		*g = NULL;
		jr->state = OUTER_DONE;
	}
	hg_pos pos = { jr->name, 0, 0 };
	return hg_alloc_unit_end(&u, d, ndiags, pos) == HG_ENOMEM ? HG_ENOMEM : rc;
}

static int json_reader_next(hg_json_reader *jr, hg_game_record **g, hg_diags *d)
{
	*g = NULL;
	reader *r = &jr->r;
	r->d = d;
	r->errors_at_start = d->nerrors;
	if (jr->state == OUTER_START) {
		if (source_skip_space(&jr->src) != '{') {
			if (source_peek(&jr->src) == EOF && !jr->src.io_error)
				unexpected(jr, "'[' or '{'");
			else if (!jr->src.io_error) {
				/* not an object: jansson says what it is */
				json_t *v = decode_value(jr, MAX_OUTER_VALUE, "the document");
				if (v) {
					mismatch(r, "an object", v);
					json_decref(v);
				}
				jr->state = OUTER_DONE;
			}
		} else {
			source_step(&jr->src);
			read_outer(jr, 1);
		}
	}
	while (jr->state == OUTER_GAMES) {
		int c = source_skip_space(&jr->src);
		if (c == ']') {
			source_step(&jr->src);
			read_outer(jr, 0);
			break;
		}
		if (jr->index > 0 && expect(jr, ',', "',' or ']'") != 0)
			break;
		if (jr->index == 0 && c == EOF) {
			expect(jr, ']', "']'");
			break;
		}
		source_skip_space(&jr->src);
		size_t mark = path_push_key(r, "games");
		path_push_index(r, jr->index);
		jr->game_start = jr->src.taken;
		r->tags_over = 0;
		*g = stream_game(jr);
		path_pop(r, mark);
		jr->index++;
		if (!*g)
			continue;	/* not an object: said so */
		break;
	}
	while (jr->state == OUTER_LINES) {
		/* Blank lines are let pass; a game shares its line with no other. */
		int c = source_skip_space(&jr->src);
		if (c == EOF) {
			if (jr->src.io_error)
				unexpected(jr, "a game");
			jr->state = OUTER_DONE;
			break;
		}
		if (jr->index > 0 && jr->src.line == jr->end_line) {
			unexpected(jr, "a line feed");
			break;
		}
		unsigned line = jr->src.line;
		size_t mark = r->path.len;
		hg_buf_printf(&r->path, "line %u", line);
		jr->game_start = jr->src.taken;
		r->tags_over = 0;
		*g = stream_game(jr);
		path_pop(r, mark);
		jr->index++;
		jr->end_line = jr->src.line;
		if (*g)
			break;
	}
	if (jr->state == OUTER_DONE && jr->src.io_error && !*g)
		return -1;
	jr->errors += d->nerrors - r->errors_at_start;
	if (jr->errors >= MAX_ERRORS && jr->state != OUTER_DONE) {
		hg_pos pos = { jr->name, 0, 0 };
		hg_diag_add(d, HG_ERROR, pos, "hgn.json",
			    "%d errors: the rest of the document is not checked", MAX_ERRORS);
		jr->state = OUTER_DONE;
	}
	return *g ? 1 : 0;
}

int hg_read_json(const char *name, const char *text, size_t len,
		 hg_game_record ***games, size_t *n, hg_diags *d)
{
	*games = NULL;
	*n = 0;
	hg_alloc_unit u;
	size_t ndiags = d->n;
	hg_alloc_unit_begin(&u);
	hg_json_reader *jr = hg_json_reader_open_mem(name ? name : "-", text, len);
	size_t errors_at_start = d->nerrors;
	hg_game_record **v = NULL;
	size_t nv = 0, cap = 0;
	hg_game_record *g;
	int rc = 0;
	while (jr && (rc = hg_json_reader_next(jr, &g, d)) == 1) {
		if (HG_TRY_GROW(v, cap, nv + 1) != 0) {
			hg_record_free(g);
			break;
		}
		v[nv++] = g;
	}
	hg_json_reader_close(jr);
	if (!v && rc == 0)
		v = hg_try_calloc(1, sizeof *v);
	hg_pos pos = { name ? name : "-", 0, 0 };
	/* A document is taken whole or not at all. */
	int enomem = hg_alloc_unit_end(&u, d, ndiags, pos) == HG_ENOMEM;
	if (enomem || d->nerrors > errors_at_start) {
		for (size_t i = 0; i < nv; i++)
			hg_record_free(v[i]);
		free(v);
		return enomem ? HG_ENOMEM : -1;
	}
	*games = v;
	*n = nv;
	return 0;
}
