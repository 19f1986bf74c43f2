/* session.c - a run's data path, the cache of loaded game data, and the
 * preparation every record needs before it can be replayed or formatted.
 *
 * A session may be shared by threads that check games in parallel: the
 * cache is guarded by a mutex, and what it hands out (the class and its
 * loaded data) is only ever read after loading. */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

typedef struct loaded {
	const hg_game_class *cls;
	char *key;		/* which files: see data_key() */
	hg_gdata *data;
} loaded;

struct hg_session {
	hg_datapath path;
	pthread_mutex_t lock;	/* guards v, n, cap */
	loaded *v;
	size_t n, cap;
};

hg_session *hg_session_new(const char *data_dir)
{
	hg_session *s = hg_xcalloc(1, sizeof *s);
	hg_datapath_init(&s->path, data_dir);
	pthread_mutex_init(&s->lock, NULL);
	return s;
}

void hg_session_free(hg_session *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++) {
		if (s->v[i].cls->unload)
			s->v[i].cls->unload(s->v[i].data);
		free(s->v[i].key);
	}
	free(s->v);
	hg_datapath_free(&s->path);
	pthread_mutex_destroy(&s->lock);
	free(s);
}

const hg_datapath *hg_session_datapath(const hg_session *s)
{
	return &s->path;
}

/* The directory a record's own data files are relative to. */
static char *record_dir(const hg_game_record *rec)
{
	const char *file = rec ? rec->file : NULL;
	const char *slash = file ? strrchr(file, '/') : NULL;
	if (!slash)
		return hg_xstrdup(".");
	if (slash == file)
		return hg_xstrdup("/");
	return hg_xstrndup(file, (size_t)(slash - file));
}

static int ends_with(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);
	return ls >= lx && strcmp(s + ls - lx, suffix) == 0;
}

/* Records select data with tags whose names end in "File" (DeckFile,
 * MapFile, ...): two records share loaded data exactly when they name the
 * same such files from the same directory.  Loading once per data set is
 * what keeps checking a large archive fast. */
static char *data_key(const hg_game_class *cls, const hg_game_record *rec,
		      const char *dir)
{
	hg_buf k;
	hg_buf_init(&k);
	hg_buf_puts(&k, cls->id);
	int any = 0;
	for (size_t i = 0; rec && i < rec->ntags; i++)
		if (ends_with(rec->tags[i].name, "File")) {
			hg_buf_printf(&k, "\n%s=%s", rec->tags[i].name, rec->tags[i].value);
			any = 1;
		}
	if (any)
		hg_buf_printf(&k, "\ndir=%s", dir);
	return hg_buf_steal(&k);
}

static void unknown_game(const hg_game_record *rec, const char *name, hg_diags *d)
{
	const hg_tag *tag = hg_record_tag(rec, "Game");
	hg_diag *dg = hg_diag_add(d, HG_ERROR, tag ? tag->pos : rec->pos, "hgn.unknown-game",
				  "unknown game '%s'", name);
	const hg_game_class *const *games = hg_games();
	hg_buf list;
	hg_buf_init(&list);
	for (size_t i = 0; games[i]; i++)
		hg_buf_printf(&list, "%s%s", i ? ", " : "", games[i]->id);
	hg_diag_note(dg, "herald referees: %s", list.data ? list.data : "(none)");
	hg_buf_free(&list);
}

/* Whether the record names data files of its own (tags ending in "File"). */
static int names_data_files(const hg_game_record *rec)
{
	for (size_t i = 0; i < rec->ntags; i++)
		if (ends_with(rec->tags[i].name, "File"))
			return 1;
	return 0;
}

/* The cached data for (cls, key), or NULL.  Called with the lock held. */
static const hg_gdata *cached(const hg_session *s, const hg_game_class *cls,
			      const char *key)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].cls == cls && strcmp(s->v[i].key, key) == 0)
			return s->v[i].data;
	return NULL;
}

int hg_session_prepare(hg_session *s, const hg_game_record *rec,
		       const hg_game_class **cls_out, const hg_gdata **data_out,
		       hg_diags *d)
{
	const char *name = hg_record_tag_value(rec, "Game");
	if (!name) {
		hg_diag_add(d, HG_ERROR, rec->pos, "hgn.missing-tag",
			    "the game has no 'Game' tag, so it cannot be replayed");
		return -1;
	}
	const hg_game_class *cls = hg_game_find(name);
	if (!cls) {
		unknown_game(rec, name, d);
		return -1;
	}
	*cls_out = cls;
	/* Most records use the default data: their key is the game's id, found
	 * without building anything (this runs once per game checked). */
	const hg_gdata *data = NULL;
	int own_files = names_data_files(rec);
	if (!own_files) {
		pthread_mutex_lock(&s->lock);
		data = cached(s, cls, cls->id);
		pthread_mutex_unlock(&s->lock);
		if (data) {
			*data_out = data;
			return 0;
		}
	}
	char *dir = record_dir(rec);
	char *key = data_key(cls, rec, dir);
	int rc = 0;
	/* Loading happens under the lock, so that two threads never load the
	 * same data twice, and nobody reads the cache while it grows. */
	pthread_mutex_lock(&s->lock);
	data = cached(s, cls, key);
	if (!data) {
		hg_load_ctx ctx = { &s->path, rec, dir };
		hg_buf loader_key;
		hg_buf_init(&loader_key);
		hg_gdata *fresh = cls->load(&ctx, &loader_key, d);
		hg_buf_free(&loader_key);
		if (fresh) {
			HG_GROW(s->v, s->cap, s->n + 1);
			s->v[s->n].cls = cls;
			s->v[s->n].key = key;
			s->v[s->n].data = fresh;
			s->n++;
			key = NULL;
			data = fresh;
		} else {
			rc = -1;
		}
	}
	pthread_mutex_unlock(&s->lock);
	free(dir);
	free(key);
	if (rc == 0)
		*data_out = data;
	return rc;
}

/* Rewrites one line's actions (and its variations') canonically. */
static int canonicalize_line(const hg_game_class *cls, const hg_state *st,
			     hg_line *line, hg_diags *d)
{
	int rc = 0;
	hg_buf seat, body;
	hg_buf_init(&seat);
	hg_buf_init(&body);
	for (size_t i = 0; i < line->n; i++) {
		hg_node *n = &line->nodes[i];
		if (n->kind == HG_NODE_VARIATION) {
			rc |= canonicalize_line(cls, st, n->variation, d);
			continue;
		}
		if (n->kind != HG_NODE_ACTION)
			continue;
		hg_buf_clear(&seat);
		hg_buf_clear(&body);
		if (hg_action_is_resign(&n->action)) {
			/* the core's action (ENDINGS): its seat canonical, when it is one */
			int k = hg_seat_index(cls, st, n->action.seat);
			if (k < 0)
				continue;
			hg_buf_puts(&seat, cls->seat_name(st, (unsigned)k));
			hg_buf_puts(&body, "resign");
		} else {
			hg_action *a = cls->parse(st, &n->action, d);
			if (!a) {
				rc = -1;
				continue;
			}
			cls->format(st, a, &seat, &body);
			cls->free_action(a);
		}
		hg_pos pos = n->action.seat_pos.line ? n->action.seat_pos : n->pos;
		hg_action_text fresh;
		memset(&fresh, 0, sizeof fresh);
		if (hg_action_text_set(&fresh, seat.data ? seat.data : "",
				       body.data ? body.data : "", pos, d) != 0) {
			hg_action_text_free(&fresh);
			rc = -1;
			continue;
		}
		hg_action_text_free(&n->action);
		n->action = fresh;
	}
	hg_buf_free(&seat);
	hg_buf_free(&body);
	return rc;
}

int hg_canonicalize(hg_session *s, hg_game_record *rec, hg_diags *d)
{
	const hg_game_class *cls;
	const hg_gdata *data;
	if (hg_session_prepare(s, rec, &cls, &data, d) != 0)
		return -1;
	hg_state *st = cls->setup(data, rec, d);
	if (!st)
		return -1;
	int rc = canonicalize_line(cls, st, &rec->moves, d);
	cls->free_state(st);
	return rc;
}
