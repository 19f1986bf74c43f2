/* convert-yaml.c - HGN records as YAML: libyaml's emitter writes them, and
 * record-reader.c reads them, each game's tree as yaml-tree.c loads it
 * from libyaml's event parser.
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

#include "record-reader.h"
#include "yaml-tree.h"

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
	number(&w, HG_RECORD_FORMAT_VERSION);
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
 * (hg_yaml_load_items), and record-reader.c reads each game's tree, value
 * by value, as a walk of it gives them.  The tree's own diagnostics
 * (data.*) are reported as hgn.yaml: here the YAML is a record, not game
 * data.
 * ------------------------------------------------------------------------ */

/* A list or mapping open for the reader, and its next item (for a
 * mapping, the index of its next key). */
typedef struct tree_frame {
	const hg_ynode *node;
	size_t next;
} tree_frame;

typedef struct reader {
	hg_record_source source_ops;
	hg_record_reader r;
	hg_game_record **games;	/* read so far */
	size_t ngames, cap;
	size_t index;		/* of the next game */
	tree_frame *stack;
	size_t depth, capstack;
	unsigned unit_depth;	/* of the unit of work the loader is paused in */
} reader;

static reader *of_source(hg_record_source *src)
{
	return (reader *)((char *)src - offsetof(reader, source_ops));
}

/* Gives node n to the reader: a scalar, or a list or mapping opened. */
static hg_rvalue_kind give(reader *yr, const hg_ynode *n, hg_rvalue *v)
{
	v->pos = n->pos;
	if (n->kind == HG_Y_SCALAR) {
		v->text = n->scalar;
		v->plain = n->plain;
		/* a plain null is no string */
		v->is_string = !n->plain || !hg_ycore_null(n->scalar);
		return v->kind = HG_RV_SCALAR;
	}
	if (HG_TRY_GROW(yr->stack, yr->capstack, yr->depth + 1) != 0)
		return v->kind = HG_RV_STOP;	/* (the unit of work fails) */
	yr->stack[yr->depth].node = n;
	yr->stack[yr->depth++].next = 0;
	return v->kind = n->kind == HG_Y_MAP ? HG_RV_MAP : HG_RV_LIST;
}

static hg_rvalue_kind tree_next(hg_record_source *src, hg_rvalue *v)
{
	reader *yr = of_source(src);
	memset(v, 0, sizeof *v);
	if (yr->depth == 0)
		return v->kind = HG_RV_STOP;
	tree_frame *f = &yr->stack[yr->depth - 1];
	if (f->next >= f->node->n) {
		yr->depth--;
		return v->kind = HG_RV_END;
	}
	const hg_ynode *item = f->node->items[f->next++];
	if (f->node->kind == HG_Y_MAP) {
		/* a key that is no scalar was refused by the loader */
		v->key = item->kind == HG_Y_SCALAR ? item->scalar : "";
		v->key_pos = item->pos;
		item = f->node->items[f->next++];
	}
	return give(yr, item, v);
}

static int tree_skip(hg_record_source *src)
{
	of_source(src)->depth--;
	return 0;
}

static void reader_init(reader *yr, const char *name, hg_diags *d)
{
	memset(yr, 0, sizeof *yr);
	hg_record_reader_init(&yr->r, name, "hgn.yaml");
	yr->r.d = d;
	yr->source_ops.next = tree_next;
	yr->source_ops.skip = tree_skip;
	yr->source_ops.a_map = _("a mapping");
	yr->source_ops.a_list = _("a list");
}

static void reader_free(reader *yr)
{
	hg_record_reader_free(&yr->r);
	free(yr->stack);
	free(yr->games);
}

/* Each game as soon as the loader has it (hg_yaml_load_items). */
static void read_item(void *ctx, const hg_ynode *item, hg_diags *d)
{
	reader *yr = ctx;
	(void)d;	/* the same list as yr->r.d */
	if (yr->r.gave_up || yr->r.d->nerrors >= HG_RECORD_MAX_ERRORS) {
		yr->r.gave_up = 1;
		return;
	}
	/* the game is read in the caller's unit of work (util.c), the
	 * loader around it paused */
	hg_alloc_resume(yr->unit_depth);
	size_t mark = hg_record_path_key(&yr->r, "games");
	hg_record_path_index(&yr->r, yr->index++);
	yr->depth = 0;
	hg_rvalue v;
	memset(&v, 0, sizeof v);
	hg_game_record *g = give(yr, item, &v) == HG_RV_STOP ? NULL
		: hg_record_read_game(&yr->r, &yr->source_ops, &v);
	hg_record_path_pop(&yr->r, mark);
	if (g && HG_TRY_GROW(yr->games, yr->cap, yr->ngames + 1) != 0) {
		hg_record_free(g);
		g = NULL;
	}
	if (g)
		yr->games[yr->ngames++] = g;
	hg_alloc_pause();
}

/* What is left of the document once the games have gone. */
static void read_document(const char *name, const hg_ydoc *doc, hg_diags *d)
{
	static const char *const keys[] = { "!herald", "!games", NULL };
	const hg_ynode *root = doc->root;
	if (!root) {
		hg_pos pos = { name, 0, 0 };
		hg_diag_add(d, HG_ERROR, pos, "hgn.yaml",
			    "the document is empty (expected 'herald' and 'games')");
		return;
	}
	if (hg_ycheck_keys(root, keys, "the document", d) != 0)
		return;
	const hg_ynode *version = hg_ymap_get(root, "herald");
	long v;
	if (hg_yint(version, LONG_MIN, LONG_MAX, &v, d) == 0 && v != HG_RECORD_FORMAT_VERSION)
		hg_diag_add(d, HG_ERROR, version->pos, "hgn.yaml", "unsupported format version %ld "
			    "(this herald reads version %d)", v, HG_RECORD_FORMAT_VERSION);
	hg_ycheck_kind(hg_ymap_get(root, "games"), HG_Y_SEQ, NULL, d);
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
	hg_yaml_reader *yr = hg_open_calloc(1, sizeof *yr);
	if (yr)
		yr->name = hg_open_strdup(name ? name : "-");
	if (!yr || !yr->name) {
		free(yr);
		return NULL;
	}
	reader_init(&yr->r, yr->name, NULL);
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
	r->r.d = d;
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
			read_document(yr->name, doc, d);
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
		yr->r.r.d = &sink;
		yr->r.r.gave_up = 1;
		hg_ydoc_free(hg_yaml_items_close(yr->items, &sink));
		hg_diags_free(&sink);
	}
	reader_free(&yr->r);
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
	reader r;
	reader_init(&r, name, &local);
	r.unit_depth = depth;
	/* Game by game: memory holds one game's tree at a time.  After
	 * HG_RECORD_MAX_ERRORS the loader stops and says so. */
	hg_ydoc *doc = hg_yaml_load_items(name, text, len, "games", read_item, &r, &local);
	if (doc) {
		hg_alloc_resume(depth);
		read_document(name, doc, &local);
		hg_alloc_pause();
	}
	hg_ydoc_free(doc);
	*games = r.games;
	*n = r.ngames;
	r.games = NULL;
	reader_free(&r);
	hg_alloc_resume(depth);	/* (the recoding and the move may fail, and say so) */
	recode(&local, 0);
	int failed = local.nerrors > 0;
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
