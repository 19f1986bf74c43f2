/* convert-yaml.c - HGN records as YAML: libyaml's emitter writes them, and
 * the reader checks a document loaded by yaml-tree.c.
 *
 * The shape is the JSON form's (see convert-json.c and
 * grammar/herald-record.schema.json), in block style:
 *   herald: 1
 *   games:
 *   - tags:
 *     - name: Game
 *       value: kingdoms-of-crusaders
 *     moves:
 *     - move: 1
 *     - seat: P1
 *       action: draw c12
 *     result: P1
 * Every string that a YAML reader could take for something else (null,
 * a boolean, a number, also YAML 1.1's yes/no/on/off) is quoted, so other
 * tools read the same model back.
 */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <yaml.h>

#include "yaml-tree.h"

#define FORMAT_VERSION 1
#define MAX_ERRORS 100		/* then the rest is not checked (as the loader) */

static const char *const glyphs[] = { "!", "?", "!!", "??", "!?", "?!", NULL };

/* ------------------------------------------------------------------------
 * Writing.
 * ------------------------------------------------------------------------ */
typedef struct writer {
	yaml_emitter_t e;
	int ok;			/* the emitter has not failed */
} writer;

static int write_to_buf(void *data, unsigned char *buffer, size_t size)
{
	hg_buf_putn(data, (const char *)buffer, size);
	return 1;
}

/* The emitter takes the event, whether it succeeds or not. */
static void put(writer *w, yaml_event_t *ev)
{
	if (!w->ok) {
		yaml_event_delete(ev);
		return;
	}
	w->ok = yaml_emitter_emit(&w->e, ev);
}

static void scalar(writer *w, const char *s, yaml_scalar_style_t style)
{
	yaml_event_t ev;
	if (!yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)s, (int)strlen(s),
					  1, 1, style)) {
		w->ok = 0;
		return;
	}
	put(w, &ev);
}

/* Would a plain scalar s be read as something other than the string s,
 * by a YAML 1.2 core-schema reader or a YAML 1.1 one?  (libyaml's emitter
 * looks after indicators, spaces and line breaks, not types.) */
static int looks_typed(const char *s)
{
	static const char *const words[] = {
		"", "~", "null", "true", "false", "yes", "no", "on", "off", "y", "n",
		".inf", "+.inf", "-.inf", ".nan", "=", "<<", NULL
	};
	for (size_t i = 0; words[i]; i++)
		if (strcasecmp(s, words[i]) == 0)
			return 1;
	if (s[0] >= '0' && s[0] <= '9')
		return 1;
	return (s[0] == '-' || s[0] == '+' || s[0] == '.') &&
	       ((s[1] >= '0' && s[1] <= '9') || s[1] == '.');
}

static void string(writer *w, const char *s)
{
	if (!s)
		s = "";
	hg_buf fixed;
	hg_buf_init(&fixed);
	size_t len = strlen(s);
	if (hg_utf8_invalid_at(s, len) != (size_t)-1) {
		/* Only UTF-8 can be written; a stray byte becomes U+FFFD. */
		for (size_t i = 0; i < len;) {
			uint32_t cp;
			int n = hg_utf8_decode(s + i, len - i, &cp);
			if (n < 0) {
				hg_utf8_put(&fixed, 0xFFFD);
				i++;
			} else {
				hg_buf_putn(&fixed, s + i, (size_t)n);
				i += (size_t)n;
			}
		}
		s = fixed.data;
	}
	yaml_scalar_style_t style = YAML_ANY_SCALAR_STYLE;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7F)
			style = YAML_DOUBLE_QUOTED_SCALAR_STYLE;	/* escaped, one line */
	if (style == YAML_ANY_SCALAR_STYLE && looks_typed(s))
		style = YAML_SINGLE_QUOTED_SCALAR_STYLE;
	scalar(w, s, style);
	hg_buf_free(&fixed);
}

static void key(writer *w, const char *k)
{
	scalar(w, k, YAML_PLAIN_SCALAR_STYLE);
}

static void number(writer *w, unsigned long v)
{
	char s[32];
	snprintf(s, sizeof s, "%lu", v);
	scalar(w, s, YAML_PLAIN_SCALAR_STYLE);
}

static void begin_map(writer *w)
{
	yaml_event_t ev;
	yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_MAPPING_STYLE);
	put(w, &ev);
}

static void end_map(writer *w)
{
	yaml_event_t ev;
	yaml_mapping_end_event_initialize(&ev);
	put(w, &ev);
}

static void begin_seq(writer *w)
{
	yaml_event_t ev;
	yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_SEQUENCE_STYLE);
	put(w, &ev);
}

static void end_seq(writer *w)
{
	yaml_event_t ev;
	yaml_sequence_end_event_initialize(&ev);
	put(w, &ev);
}

static void write_line(writer *w, const hg_line *l);

static void write_node(writer *w, const hg_node *n)
{
	begin_map(w);
	switch (n->kind) {
	case HG_NODE_MOVENUM:
		key(w, "move");
		number(w, n->number);
		break;
	case HG_NODE_ACTION:
		key(w, "seat");
		string(w, n->action.seat);
		key(w, "action");
		string(w, n->action.text);
		if (n->glyph) {
			key(w, "glyph");
			string(w, n->glyph);
		}
		break;
	case HG_NODE_COMMENT:
		key(w, "comment");
		string(w, n->comment);
		if (n->line_comment) {
			key(w, "line");
			scalar(w, "true", YAML_PLAIN_SCALAR_STYLE);
		}
		if (n->own_line) {
			key(w, "own_line");
			scalar(w, "true", YAML_PLAIN_SCALAR_STYLE);
		}
		break;
	case HG_NODE_NAG:
		key(w, "nag");
		number(w, n->number);
		break;
	case HG_NODE_VARIATION:
		key(w, "variation");
		write_line(w, n->variation);
		break;
	}
	end_map(w);
}

static void write_line(writer *w, const hg_line *l)
{
	begin_seq(w);
	for (size_t i = 0; l && i < l->n; i++)
		write_node(w, &l->nodes[i]);
	end_seq(w);
}

static void write_game(writer *w, const hg_game_record *g)
{
	begin_map(w);
	key(w, "tags");
	begin_seq(w);
	for (size_t i = 0; i < g->ntags; i++) {
		begin_map(w);
		key(w, "name");
		string(w, g->tags[i].name);
		key(w, "value");
		string(w, g->tags[i].value);
		end_map(w);
	}
	end_seq(w);
	if (g->header.n) {
		key(w, "header");
		write_line(w, &g->header);
	}
	key(w, "moves");
	write_line(w, &g->moves);
	key(w, "result");
	if (g->result)
		string(w, g->result);
	else
		scalar(w, "null", YAML_PLAIN_SCALAR_STYLE);
	if (g->trailer.n) {
		key(w, "trailer");
		write_line(w, &g->trailer);
	}
	end_map(w);
}

static void write_yaml(hg_game_record *const *games, size_t n, hg_buf *out)
{
	writer w;
	w.ok = yaml_emitter_initialize(&w.e);
	if (!w.ok) {
		hg_alloc_failure();
		return;
	}
	yaml_emitter_set_output(&w.e, write_to_buf, out);
	yaml_emitter_set_unicode(&w.e, 1);
	yaml_emitter_set_indent(&w.e, 2);
	yaml_emitter_set_width(&w.e, -1);	/* never fold a long string */
	yaml_emitter_set_break(&w.e, YAML_LN_BREAK);

	yaml_event_t ev;
	yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
	put(&w, &ev);
	yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1);
	put(&w, &ev);
	begin_map(&w);
	key(&w, "herald");
	number(&w, FORMAT_VERSION);
	key(&w, "games");
	begin_seq(&w);
	for (size_t i = 0; i < n; i++)
		write_game(&w, games[i]);
	end_seq(&w);
	end_map(&w);
	yaml_document_end_event_initialize(&ev, 1);
	put(&w, &ev);
	yaml_stream_end_event_initialize(&ev);
	put(&w, &ev);
	yaml_emitter_flush(&w.e);
	/* the events are well formed: a failure other than the emitter's
	 * own (text libyaml refuses) is libyaml's memory */
	if (!w.ok && w.e.error != YAML_EMITTER_ERROR)
		hg_alloc_failure();
	yaml_emitter_delete(&w.e);
}

/* A unit of work (util.c). */
int hg_write_yaml(hg_game_record *const *games, size_t n, hg_buf *out)
{
	hg_alloc_unit u;
	size_t len0 = out->len;
	hg_alloc_unit_begin(&u);
	write_yaml(games, n, out);
	return hg_write_unit_end(&u, out, len0);
}

/* ------------------------------------------------------------------------
 * Reading: the document is loaded as a positioned tree, one game at a time
 * (hg_yaml_load_items), so every shape error points at its line and column
 * and a file of any number of games fits in memory.  The tree's own
 * diagnostics (data.*) are reported as hgn.yaml: here the YAML is a
 * record, not game data.
 * ------------------------------------------------------------------------ */
typedef struct reader {
	hg_diags *d;		/* collects data.* and hgn.yaml codes */
	const char *name;
	hg_game_record **games;	/* read so far */
	size_t ngames, cap;
	hg_game_record *g;	/* being read */
	size_t actions;		/* in g, on every line */
	int gave_up;		/* MAX_ERRORS reached: the rest is unchecked */
	unsigned unit_depth;	/* of the unit of work the loader is paused in */
} reader;

/* Enough errors: stop checking (called between nodes, tags and games). */
static int too_many_errors(reader *r)
{
	if (r->d->nerrors >= MAX_ERRORS)
		r->gave_up = 1;
	return r->gave_up;
}

typedef enum line_kind { LINE_MOVES, LINE_COMMENTS } line_kind;

static hg_diag *yaml_shape_error(reader *r, const hg_ynode *n, const char *fmt, ...)
	HG_PRINTF(3, 4);

static hg_diag *yaml_shape_error(reader *r, const hg_ynode *n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	hg_diag *dg = hg_diag_vadd(r->d, HG_ERROR, n->pos, "hgn.yaml", fmt, ap);
	va_end(ap);
	return dg;
}

/* Where the model keeps a node's position: the record owns the name. */
static hg_pos model_pos(const reader *r, const hg_ynode *n)
{
	hg_pos p = n->pos;
	p.file = r->g->file;
	return p;
}

/* The string at map[key], NULL when absent (hg_ycheck_keys reports a
 * missing required key) or after a diagnostic.  `flat`: no line break allowed
 * (HGN strings cannot hold one). */
static const char *get_string(reader *r, const hg_ynode *map, const char *key, int flat,
			      const hg_ynode **node)
{
	const hg_ynode *v = hg_ymap_get(map, key);
	const char *s;
	if (node)
		*node = v;
	if (!v || hg_ystr(v, &s, r->d) != 0)
		return NULL;
	if (strlen(s) > HG_MAX_TOKEN) {
		yaml_shape_error(r, v, "the string for '%s' is longer than %d bytes", key,
			    HG_MAX_TOKEN);
		return NULL;
	}
	if (flat && strchr(s, '\n')) {
		yaml_shape_error(r, v, "the string for '%s' holds a line break", key);
		return NULL;
	}
	long control = hg_first_control(s);
	if (control >= 0) {
		yaml_shape_error(r, v, "the string for '%s' holds the control character U+%04lX", key,
			    (unsigned long)control);
		return NULL;
	}
	return s;
}

static void read_line(reader *r, const hg_ynode *seq, hg_line *line, line_kind kind,
		      unsigned depth);

static void read_action(reader *r, const hg_ynode *map, hg_node *n)
{
	static const char *const keys[] = { "!seat", "!action", "glyph", NULL };
	hg_ycheck_keys(map, keys, "an action", r->d);
	const hg_ynode *seat_node, *body_node;
	const char *seat = get_string(r, map, "seat", 1, &seat_node);
	const char *body = get_string(r, map, "action", 0, &body_node);
	const hg_ynode *glyph = hg_ymap_get(map, "glyph");
	int which;
	if (glyph && hg_yword(glyph, glyphs, &which, r->d) == 0)
		n->glyph = hg_try_strdup(glyphs[which]);	/* (NULL: the unit fails) */
	if (!seat || !body)
		return;
	if (++r->actions > HG_MAX_ACTIONS) {
		if (r->actions == HG_MAX_ACTIONS + 1)
			yaml_shape_error(r, map, "the game has more than %d actions", HG_MAX_ACTIONS);
		return;
	}
	/* The body is cut into tokens as the lexer would cut "seat: body";
	 * placing that text so that the body falls where it stands here gives
	 * its tokens their own columns (a quoted body starts after its
	 * quote).  Only a body that spans lines ends up approximate. */
	hg_pos pos = model_pos(r, body_node);
	unsigned shift = (unsigned)hg_utf8_chars(seat, strlen(seat)) + 2;
	if (!body_node->plain)
		pos.col++;
	pos.col = pos.col > shift ? pos.col - shift : 1;
	size_t before = r->d->nerrors;
	if (hg_action_text_set(&n->action, seat, body, pos, r->d) != 0) {
		if (r->d->nerrors == before)
			yaml_shape_error(r, body_node, "the action cannot be read");
		return;
	}
	n->action.seat_pos = model_pos(r, seat_node);
}

static void read_comment(reader *r, const hg_ynode *map, hg_node *n)
{
	static const char *const keys[] = { "!comment", "line", "own_line", NULL };
	hg_ycheck_keys(map, keys, "a comment", r->d);
	const hg_ynode *line = hg_ymap_get(map, "line");
	if (line)
		hg_ybool(line, &n->line_comment, r->d);
	const hg_ynode *own = hg_ymap_get(map, "own_line");
	if (own)
		hg_ybool(own, &n->own_line, r->d);
	const hg_ynode *node;
	const char *text = get_string(r, map, "comment", n->line_comment, &node);
	if (!text)
		return;
	if (!n->line_comment && strchr(text, '}')) {
		yaml_shape_error(r, node, "a brace comment cannot hold a '}'");
		return;
	}
	n->comment = hg_try_strdup(text);	/* (NULL: the unit fails) */
}

/* The kinds of node, each known by one key. */
static const char *const node_keys[] = { "move", "seat", "comment", "nag", "variation", NULL };

static void read_node(reader *r, const hg_ynode *map, hg_line *line, line_kind lk,
		      unsigned depth)
{
	if (hg_ycheck_kind(map, HG_Y_MAP, "a node", r->d) != 0)
		return;
	int kind = -1, nkinds = 0;
	for (int i = 0; node_keys[i]; i++)
		if (hg_ymap_get(map, node_keys[i]) ||
		    (i == 1 && hg_ymap_get(map, "action"))) {
			if (nkinds++ == 0)
				kind = i;
			else
				yaml_shape_error(r, map, "a node has both '%s' and '%s': it is one thing",
					    node_keys[kind], node_keys[i]);
		}
	if (nkinds == 0) {
		hg_diag *dg = yaml_shape_error(r, map, "this mapping is not a node");
		hg_diag_note(dg, "a node has one of the keys 'move', 'seat' (with 'action'), "
			     "'comment', 'nag' or 'variation'");
		return;
	}
	if (nkinds > 1)
		return;
	if (lk == LINE_COMMENTS && kind != 2) {
		yaml_shape_error(r, map, "expected a comment, found a '%s' node: the header and "
			    "the trailer hold comments only", node_keys[kind]);
		return;
	}
	hg_pos pos = model_pos(r, map);
	hg_node *n;
	long v;
	switch (kind) {
	case 0: {
		static const char *const keys[] = { "!move", NULL };
		n = hg_line_try_push(line, HG_NODE_MOVENUM, pos);
		if (!n)
			return;	/* (the unit of work fails) */
		hg_ycheck_keys(map, keys, "a move number", r->d);
		if (hg_yint(hg_ymap_get(map, "move"), 0, UINT_MAX, &v, r->d) == 0)
			n->number = (unsigned)v;
		break;
	}
	case 1:
		n = hg_line_try_push(line, HG_NODE_ACTION, pos);
		if (!n)
			return;	/* (the unit of work fails) */
		read_action(r, map, n);
		break;
	case 2:
		n = hg_line_try_push(line, HG_NODE_COMMENT, pos);
		if (!n)
			return;	/* (the unit of work fails) */
		read_comment(r, map, n);
		break;
	case 3: {
		static const char *const keys[] = { "!nag", NULL };
		n = hg_line_try_push(line, HG_NODE_NAG, pos);
		if (!n)
			return;	/* (the unit of work fails) */
		hg_ycheck_keys(map, keys, "a NAG", r->d);
		if (hg_yint(hg_ymap_get(map, "nag"), 0, 255, &v, r->d) == 0)
			n->number = (unsigned)v;
		break;
	}
	default: {
		static const char *const keys[] = { "!variation", NULL };
		hg_ycheck_keys(map, keys, "a variation", r->d);
		if (depth >= HG_MAX_NESTING) {
			yaml_shape_error(r, map, "variations nested more than %d deep",
				    HG_MAX_NESTING);
			return;
		}
		n = hg_line_try_push(line, HG_NODE_VARIATION, pos);
		if (!n)
			return;	/* (the unit of work fails) */
		n->variation = hg_line_try_new();
		if (!n->variation)
			return;
		read_line(r, hg_ymap_get(map, "variation"), n->variation, LINE_MOVES,
			  depth + 1);
		break;
	}
	}
}

static void read_line(reader *r, const hg_ynode *seq, hg_line *line, line_kind kind,
		      unsigned depth)
{
	if (hg_ycheck_kind(seq, HG_Y_SEQ, NULL, r->d) != 0)
		return;
	for (size_t i = 0; i < seq->n && !too_many_errors(r); i++)
		read_node(r, seq->items[i], line, kind, depth);
}

static void read_tags(reader *r, const hg_ynode *seq)
{
	static const char *const keys[] = { "!name", "!value", NULL };
	hg_game_record *g = r->g;
	if (hg_ycheck_kind(seq, HG_Y_SEQ, NULL, r->d) != 0)
		return;
	for (size_t i = 0; i < seq->n && !too_many_errors(r); i++) {
		const hg_ynode *map = seq->items[i];
		if (hg_ycheck_keys(map, keys, "a tag", r->d) != 0)
			continue;
		const hg_ynode *name_node;
		const char *name = get_string(r, map, "name", 1, &name_node);
		const char *value = get_string(r, map, "value", 1, NULL);
		if (name && !hg_tag_name_ok(name, strlen(name))) {
			hg_diag *dg = yaml_shape_error(r, name_node, "'%s' is not a tag name", name);
			hg_diag_note(dg, "a tag name is an ASCII letter followed by ASCII "
				     "letters, digits and '_'");
		} else if (name && value && g->ntags >= HG_MAX_TAGS) {
			yaml_shape_error(r, map, "more than %d tags in one game", HG_MAX_TAGS);
			return;
		} else if (name && value) {
			/* Appended, not set: the model keeps every tag as written,
			 * repeats included, for the checker. */
			char *n = hg_try_strdup(name), *v = hg_try_strdup(value);
			if (!n || !v || HG_TRY_GROW(g->tags, g->captags, g->ntags + 1) != 0) {
				free(n);	/* (the unit of work fails) */
				free(v);
				return;
			}
			hg_tag *t = &g->tags[g->ntags++];
			t->name = n;
			t->value = v;
			t->pos = model_pos(r, map);
		}
	}
}

static hg_game_record *read_game(reader *r, const char *name, const hg_ynode *map)
{
	static const char *const keys[] = { "!tags", "header", "!moves", "!result",
					     "trailer", NULL };
	if (hg_ycheck_kind(map, HG_Y_MAP, "a game", r->d) != 0)
		return NULL;
	hg_game_record *g = hg_record_try_new(name);
	if (!g)
		return NULL;	/* (the unit of work fails) */
	r->g = g;
	r->actions = 0;
	g->pos = model_pos(r, map);
	hg_ycheck_keys(map, keys, "a game", r->d);
	const hg_ynode *tags = hg_ymap_get(map, "tags");
	if (tags)
		read_tags(r, tags);
	static const struct {
		const char *key;
		size_t offset;
		line_kind kind;
	} lines[] = {
		{ "header", offsetof(hg_game_record, header), LINE_COMMENTS },
		{ "moves", offsetof(hg_game_record, moves), LINE_MOVES },
		{ "trailer", offsetof(hg_game_record, trailer), LINE_COMMENTS },
	};
	for (size_t i = 0; i < HG_ARRAY_LEN(lines); i++) {
		const hg_ynode *seq = hg_ymap_get(map, lines[i].key);
		if (seq)
			read_line(r, seq, (hg_line *)((char *)g + lines[i].offset),
				  lines[i].kind, 0);
	}
	const hg_ynode *result = hg_ymap_get(map, "result");
	if (result) {
		g->result_pos = model_pos(r, result);
		/* A plain null (null, ~ or nothing) is a missing marker. */
		int null = result->kind == HG_Y_SCALAR && result->plain &&
			   (!*result->scalar || strcmp(result->scalar, "~") == 0 ||
			    strcmp(result->scalar, "null") == 0 ||
			    strcmp(result->scalar, "Null") == 0 ||
			    strcmp(result->scalar, "NULL") == 0);
		const char *s = null ? NULL : get_string(r, map, "result", 1, NULL);
		if (s)
			g->result = hg_try_strdup(s);	/* (NULL: the unit fails) */
	}
	r->g = NULL;
	return g;
}

/* Each game as soon as the loader has it (hg_yaml_load_items). */
static void read_item(void *ctx, const hg_ynode *item, hg_diags *d)
{
	reader *r = ctx;
	(void)d;	/* the same list as r->d */
	if (too_many_errors(r))
		return;
	/* the game is read in the caller's unit of work (util.c), the
	 * loader around it paused */
	hg_alloc_resume(r->unit_depth);
	hg_game_record *g = read_game(r, r->name, item);
	if (g && HG_TRY_GROW(r->games, r->cap, r->ngames + 1) != 0) {
		hg_record_free(g);
		g = NULL;
	}
	if (g)
		r->games[r->ngames++] = g;
	hg_alloc_pause();
}

/* What is left of the document once the games have gone. */
static void read_document(reader *r, const hg_ydoc *doc)
{
	static const char *const keys[] = { "!herald", "!games", NULL };
	const hg_ynode *root = doc->root;
	if (!root) {
		hg_pos pos = { r->name, 0, 0 };
		hg_diag_add(r->d, HG_ERROR, pos, "hgn.yaml",
			    "the document is empty (expected 'herald' and 'games')");
		return;
	}
	if (hg_ycheck_keys(root, keys, "the document", r->d) != 0)
		return;
	const hg_ynode *version = hg_ymap_get(root, "herald");
	long v;
	if (hg_yint(version, LONG_MIN, LONG_MAX, &v, r->d) == 0 && v != FORMAT_VERSION)
		yaml_shape_error(r, version, "unsupported format version %ld (this herald reads "
			    "version %d)", v, FORMAT_VERSION);
	hg_ycheck_kind(hg_ymap_get(root, "games"), HG_Y_SEQ, NULL, r->d);
}

/* The loader's data.* codes, from index `from` of d on, become hgn.yaml:
 * in a record they are the record's errors. */
static void recode(hg_diags *d, size_t from)
{
	for (size_t i = from; i < d->n; i++)
		if (strncmp(d->v[i].code, "data.", 5) == 0) {
			char *code = hg_try_strdup("hgn.yaml");
			if (!code)
				continue;	/* (the unit of work fails) */
			free(d->v[i].code);
			d->v[i].code = code;
		}
}

struct hg_yaml_reader {
	reader r;
	char *name;
	FILE *fp;
	hg_yaml_items *items;	/* NULL before the first call and at the end */
	int started, done;
};

hg_yaml_reader *hg_yaml_reader_open(const char *name, FILE *fp)
{
	hg_yaml_reader *yr = hg_try_calloc(1, sizeof *yr);
	if (yr)
		yr->name = hg_try_strdup(name ? name : "-");
	if (!yr || !yr->name) {
		free(yr);
		return NULL;
	}
	yr->r.name = yr->name;
	yr->fp = fp;
	return yr;
}

static int yaml_reader_next(hg_yaml_reader *yr, hg_game_record **g, hg_diags *d);

/* A unit of work (util.c); the loader (yaml-tree.c) paused in it. */
int hg_yaml_reader_next(hg_yaml_reader *yr, hg_game_record **g, hg_diags *d)
{
	hg_alloc_unit u;
	size_t ndiags = d->n;
	hg_alloc_unit_begin(&u);
	yr->r.unit_depth = hg_alloc_pause();
	int rc = yaml_reader_next(yr, g, d);
	hg_alloc_resume(yr->r.unit_depth);
	if (hg_alloc_unit_failed()) {
		hg_record_free(*g);
		*g = NULL;
		yr->done = 1;	/* (the reader is at its end) */
	}
	hg_pos pos = { yr->name, 0, 0 };
	return hg_alloc_unit_end(&u, d, ndiags, pos) == HG_ENOMEM ? HG_ENOMEM : rc;
}

static int yaml_reader_next(hg_yaml_reader *yr, hg_game_record **g, hg_diags *d)
{
	*g = NULL;
	reader *r = &yr->r;
	size_t from = d->n;
	r->d = d;
	if (!yr->started) {
		yr->started = 1;
		yr->items = hg_yaml_items_open(yr->name, yr->fp, "games", read_item, r, d);
		if (!yr->items)
			yr->done = 1;
	}
	while (!yr->done && !*g) {
		if (hg_yaml_items_next(yr->items, d)) {
			if (r->ngames) {	/* (none when the game was no mapping) */
				*g = r->games[0];
				r->ngames = 0;
			}
			continue;
		}
		/* The end: what is left of the document once the games have gone. */
		hg_ydoc *doc = hg_yaml_items_close(yr->items, d);
		yr->items = NULL;
		yr->done = 1;
		if (doc) {
			hg_alloc_resume(r->unit_depth);
			read_document(r, doc);
			hg_alloc_pause();
		}
		hg_ydoc_free(doc);
	}
	recode(d, from);
	return *g ? 1 : 0;
}

void hg_yaml_reader_close(hg_yaml_reader *yr)
{
	if (!yr)
		return;
	if (yr->items) {	/* closed early: the rest is not read */
		hg_diags sink;
		hg_diags_init(&sink);
		/* nor made into games (the loader runs on to the end) */
		yr->r.d = &sink;
		yr->r.gave_up = 1;
		hg_ydoc_free(hg_yaml_items_close(yr->items, &sink));
		hg_diags_free(&sink);
	}
	free(yr->r.games);
	free(yr->name);
	free(yr);
}

static int read_yaml(const char *name, const char *text, size_t len,
		     hg_game_record ***games, size_t *n, hg_diags *d, unsigned depth);

/* A unit of work (util.c); the loader (yaml-tree.c) paused in it. */
int hg_read_yaml(const char *name, const char *text, size_t len,
		 hg_game_record ***games, size_t *n, hg_diags *d)
{
	hg_alloc_unit u;
	size_t ndiags = d->n;
	hg_alloc_unit_begin(&u);
	unsigned depth = hg_alloc_pause();
	int rc = read_yaml(name, text, len, games, n, d, depth);
	hg_alloc_resume(depth);
	if (hg_alloc_unit_failed()) {
		for (size_t i = 0; i < *n; i++)
			hg_record_free((*games)[i]);
		free(*games);
		*games = NULL;
		*n = 0;
	}
	hg_pos pos = { name ? name : "-", 0, 0 };
	return hg_alloc_unit_end(&u, d, ndiags, pos) == HG_ENOMEM ? HG_ENOMEM : rc;
}

static int read_yaml(const char *name, const char *text, size_t len,
		     hg_game_record ***games, size_t *n, hg_diags *d, unsigned depth)
{
	*games = NULL;
	*n = 0;
	if (!name)
		name = "-";
	hg_diags local;
	hg_diags_init(&local);
	reader r = { .d = &local, .name = name, .unit_depth = depth };
	/* Game by game: memory holds one game's tree at a time.  After
	 * MAX_ERRORS the loader stops and says so. */
	hg_ydoc *doc = hg_yaml_load_items(name, text, len, "games", read_item, &r, &local);
	if (doc) {
		hg_alloc_resume(depth);
		read_document(&r, doc);
		hg_alloc_pause();
	}
	hg_ydoc_free(doc);
	*games = r.games;
	*n = r.ngames;
	recode(&local, 0);
	int failed = local.nerrors > 0;
	hg_alloc_resume(depth);	/* (the move may fail, and says so) */
	hg_diags_move(d, &local);
	hg_alloc_pause();
	hg_diags_free(&local);
	if (failed) {
		for (size_t i = 0; i < *n; i++)
			hg_record_free((*games)[i]);
		free(*games);
		*games = NULL;
		*n = 0;
		return -1;
	}
	if (!*games) {
		hg_alloc_resume(depth);
		*games = hg_try_calloc(1, sizeof **games);	/* (NULL: the unit fails) */
		hg_alloc_pause();
	}
	return 0;
}
