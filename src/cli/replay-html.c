/* replay-html.c - the replay as one self-contained page: the replay's JSON
 * (each position given as its changes from the one before), the page's
 * style and script (data/replay/page.css and page.js) and the drawing
 * layouts (data/<game>/map-layout.yaml), all inline: no network, no other
 * file.  Text from the record reaches the page only inside that JSON,
 * where '<', '>' and '&' are escaped, and the script puts it into the page
 * as text, never as markup. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay.h"

#define MAX_DEPTH 64

typedef struct html_writer {
	replay_writer base;
	hg_buf *out;
	const hg_datapath *path;
	int print;
	json_t *games;			/* what the page shows */
	json_t *game, *steps;		/* the game being replayed */
	json_t *prev;			/* the position the last step showed */
	/* per depth, the position before and after its last action: an
	 * illegal action shows the position before it */
	json_t *last[MAX_DEPTH], *before_last[MAX_DEPTH];
	int has_ck;
} html_writer;

/* The change from a to b (page.js, apply()): NULL when they are equal. */
static json_t *delta(const json_t *a, const json_t *b)
{
	if (json_equal((json_t *)a, (json_t *)b))
		return NULL;
	if (json_is_object(a) && json_is_object(b)) {
		json_t *d = json_object();
		const char *key;
		json_t *v;
		json_object_foreach((json_t *)b, key, v) {
			json_t *was = json_object_get(a, key);
			json_t *c = was ? delta(was, v) : json_pack("{s:O}", "$v", v);
			if (c)
				json_object_set_new(d, key, c);
		}
		json_object_foreach((json_t *)a, key, v)
			if (!json_object_get(b, key))
				json_object_set_new(d, key, json_pack("{s:i}", "$r", 1));
		return d;
	}
	if (json_is_array(a) && json_is_array(b) && json_array_size(a) == json_array_size(b)) {
		json_t *items = json_object();
		for (size_t i = 0; i < json_array_size(a); i++) {
			json_t *c = delta(json_array_get(a, i), json_array_get(b, i));
			if (c) {
				char key[24];
				snprintf(key, sizeof key, "%zu", i);
				json_object_set_new(items, key, c);
			}
		}
		return json_pack("{s:o}", "$a", items);
	}
	return json_pack("{s:O}", "$v", (json_t *)b);
}

/* The map's borders never change: the page has them once (map_borders),
 * not in every position. */
static void strip_borders(html_writer *w, json_t *pos)
{
	json_t *areas = json_object_get(pos, "areas");
	if (!json_is_array(areas))
		return;
	w->has_ck = 1;
	json_t *borders = json_object_get(w->game, "map_borders");
	if (!borders) {
		borders = json_object();
		json_object_set_new(w->game, "map_borders", borders);
	}
	size_t i;
	json_t *a;
	json_array_foreach(areas, i, a) {
		json_t *id = json_object_get(a, "id");
		json_t *b = json_object_get(a, "borders");
		if (json_is_string(id) && b)
			json_object_set(borders, json_string_value(id), b);
		json_object_del(a, "borders");
	}
}

static void reset_depths(html_writer *w)
{
	for (size_t k = 0; k < MAX_DEPTH; k++) {
		json_decref(w->last[k]);
		json_decref(w->before_last[k]);
		w->last[k] = w->before_last[k] = NULL;
	}
	json_decref(w->prev);
	w->prev = NULL;
}

static void html_start(void *ctx, const hg_game_record *g, const hg_game_class *cls,
		       const hg_state *start, const hg_diag **diags, size_t ndiags)
{
	html_writer *w = ctx;
	reset_depths(w);
	json_t *s = replay_json_start(g, cls, start, w->base.index, w->base.path, diags, ndiags);
	const char *players = hg_record_tag_value(g, "Players");
	hg_buf title;
	hg_buf_init(&title);
	hg_buf_puts(&title, cls ? cls->title : "(unknown game)");
	if (players)
		hg_buf_printf(&title, ": %s", players);
	if (w->base.as)
		hg_buf_printf(&title, " (as %s sees it)", w->base.as);
	w->game = json_pack("{s:o, s:O, s:[]}", "title", cli_json_string(title.data),
			    "header_comments", json_object_get(s, "comments"), "steps");
	hg_buf_free(&title);
	w->steps = json_object_get(w->game, "steps");
	json_t *pos = json_object_get(s, "position");
	strip_borders(w, pos);
	w->last[0] = json_incref(pos);
	w->prev = json_incref(pos);
	json_object_set_new(w->game, "start", s);
}

static void html_step(void *ctx, const hg_game_class *cls, const replay_step *st)
{
	html_writer *w = ctx;
	unsigned d = st->depth < MAX_DEPTH ? st->depth : MAX_DEPTH - 1;
	json_t *base = st->label && d > 0 ? w->before_last[d - 1] : w->last[d];
	json_t *o = replay_json_step(cls, st);
	json_t *shown;
	if (st->illegal) {
		shown = json_incref(base ? base : json_null());
	} else {
		shown = json_incref(json_object_get(o, "position"));
		strip_borders(w, shown);
		json_incref(base);
		json_decref(w->before_last[d]);
		json_decref(w->last[d]);
		w->before_last[d] = base;
		w->last[d] = json_incref(shown);
	}
	json_t *c = w->prev ? delta(w->prev, shown) : json_pack("{s:O}", "$v", shown);
	json_object_del(o, "position");
	if (c)
		json_object_set_new(o, "delta", c);
	json_array_append_new(w->steps, o);
	json_decref(w->prev);
	w->prev = shown;
}

static void html_end(void *ctx, const hg_game_record *g, const hg_game_class *cls,
		     const hg_state *final, const hg_diag **diags, size_t ndiags)
{
	html_writer *w = ctx;
	json_t *e = replay_json_end(g, cls, final, diags, ndiags);
	json_object_del(e, "position");
	json_object_set_new(w->game, "end", e);
	json_array_append_new(w->games, w->game);
	w->game = w->steps = NULL;
}

/* A YAML scalar as JSON: a whole number as a number, else a string. */
static json_t *yaml_json(const hg_ynode *n)
{
	if (!n)
		return json_null();
	if (n->kind == HG_Y_SCALAR) {
		char *end;
		long v = strtol(n->scalar, &end, 10);
		if (n->plain && *n->scalar && !*end)
			return json_integer(v);
		if (n->plain && (strcmp(n->scalar, "true") == 0 || strcmp(n->scalar, "false") == 0))
			return json_boolean(n->scalar[0] == 't');
		return cli_json_string(n->scalar);
	}
	if (n->kind == HG_Y_SEQ) {
		json_t *a = json_array();
		for (size_t i = 0; i < n->n; i++)
			json_array_append_new(a, yaml_json(n->items[i]));
		return a;
	}
	json_t *o = json_object();
	for (size_t i = 0; i < hg_ymap_len(n); i++)
		if (hg_ymap_key(n, i)->kind == HG_Y_SCALAR)
			json_object_set_new(o, hg_ymap_key(n, i)->scalar, yaml_json(hg_ymap_value(n, i)));
	return o;
}

/* A file of the page (its style, its script) from the data path. */
static int read_part(html_writer *w, const char *rel, hg_buf *into)
{
	char *file = hg_datapath_find(w->path, rel);
	if (!file) {
		cli_error("replay", "cannot find '%s' in the data path (--data-dir, HERALD_DATA_PATH, "
			  "the installed data)", rel);
		return -1;
	}
	FILE *fp = fopen(file, "rb");
	int rc = fp ? 0 : -1;
	char chunk[8192];
	size_t n;
	while (fp && (n = fread(chunk, 1, sizeof chunk, fp)) > 0)
		hg_buf_putn(into, chunk, n);
	if (fp && ferror(fp))
		rc = -1;
	if (fp && fclose(fp) != 0)
		rc = -1;
	if (rc != 0)
		cli_error("replay", "cannot read '%s': %s", file, strerror(errno));
	free(file);
	return rc;
}

static json_t *layouts(html_writer *w)
{
	json_t *all = json_object();
	if (!w->has_ck)
		return all;
	char *file = hg_datapath_find(w->path, "crusader-kingdoms/map-layout.yaml");
	hg_diags d;
	hg_diags_init(&d);
	hg_ydoc *doc = file ? hg_yaml_load_file(file, &d) : NULL;
	if (doc && doc->root && doc->root->kind == HG_Y_MAP)
		json_object_set_new(all, "crusader-kingdoms", yaml_json(doc->root));
	else	/* the page still works: the areas are drawn in a grid */
		cli_print_diags(stderr, &d, 0, 0);
	hg_ydoc_free(doc);
	hg_diags_free(&d);
	free(file);
	return all;
}

/* JSON inside a <script> element: '<', '>' and '&' (which only strings
 * can hold) as escapes, so that no text of the record ends the element. */
static void put_script_json(hg_buf *out, const char *json)
{
	for (const char *p = json; *p; p++) {
		if (*p == '<')
			hg_buf_puts(out, "\\u003c");
		else if (*p == '>')
			hg_buf_puts(out, "\\u003e");
		else if (*p == '&')
			hg_buf_puts(out, "\\u0026");
		else
			hg_buf_putc(out, *p);
	}
}

static void put_html_text(hg_buf *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': hg_buf_puts(out, "&lt;"); break;
		case '>': hg_buf_puts(out, "&gt;"); break;
		case '&': hg_buf_puts(out, "&amp;"); break;
		case '"': hg_buf_puts(out, "&quot;"); break;
		default: hg_buf_putc(out, *s);
		}
	}
}

static int html_finish(replay_writer *base)
{
	html_writer *w = (html_writer *)base;
	hg_buf css, js;
	hg_buf_init(&css);
	hg_buf_init(&js);
	int rc = 0;
	if (read_part(w, "replay/page.css", &css) != 0 || read_part(w, "replay/page.js", &js) != 0) {
		rc = -1;
	} else {
		json_t *data = json_pack("{s:O, s:o, s:b}", "games", w->games, "layouts", layouts(w),
					 "print", w->print);
		char *text = json_dumps(data, JSON_COMPACT | JSON_PRESERVE_ORDER);
		json_decref(data);
		json_t *first = json_array_get(w->games, 0);
		const char *title = first ? json_string_value(json_object_get(first, "title")) : NULL;
		hg_buf *out = w->out;
		hg_buf_puts(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
			    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
			    "<meta name=\"generator\" content=\"herald replay\">\n<title>");
		put_html_text(out, title ? title : "herald replay");
		hg_buf_puts(out, "</title>\n<style>\n");
		hg_buf_putn(out, css.data, css.len);
		hg_buf_puts(out, "</style>\n</head>\n<body>\n<div id=\"app\"><noscript>This page "
			    "draws the game with JavaScript.</noscript></div>\n"
			    "<script type=\"application/json\" id=\"herald-data\">");
		put_script_json(out, text ? text : "{}");
		free(text);
		hg_buf_puts(out, "</script>\n<script>\n");
		hg_buf_putn(out, js.data, js.len);
		hg_buf_puts(out, "</script>\n</body>\n</html>\n");
	}
	hg_buf_free(&css);
	hg_buf_free(&js);
	return rc;
}

static void html_free(replay_writer *base)
{
	html_writer *w = (html_writer *)base;
	reset_depths(w);
	json_decref(w->games);
	json_decref(w->game);
	free(w);
}

replay_writer *replay_html_new(const replay_opts *o, hg_buf *out, const hg_datapath *path,
			       int print)
{
	(void)o;
	html_writer *w = cli_xcalloc(1, sizeof *w);
	w->out = out;
	w->path = path;
	w->print = print;
	w->games = json_array();
	w->base.sink = (replay_sink){ html_start, html_step, html_end, w };
	w->base.finish = html_finish;
	w->base.free = html_free;
	return &w->base;
}
