/* session.c - a run's data path, the cache of loaded game data, and the
 * preparation every record needs before it can be replayed or formatted.
 *
 * A session may be shared by threads that check games in parallel: the
 * cache is guarded by a mutex, and what it hands out (the class and its
 * loaded data) is only ever read after loading.
 *
 * The cache holds each game's default data for the whole run, and at most
 * HG_SESSION_MAX_OWN_DATA data sets loaded from files records name, the
 * least recently used going first.  A set of files that failed to load is
 * kept too, as its diagnostics: a record naming it again gets them again
 * (at its own tags) without the files being read again, so that many
 * records naming one large bad file cost one reading of it.  Data handed out stays while the
 * thread it went to may still use it: each thread pins the data of its
 * latest record (hg_session_prepare), and pinned data is never evicted. */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "engine-call.h"
#include "internal.h"

typedef struct loaded {
	const hg_game_class *cls;
	char *key;		/* which files (data_key()); NULL: the defaults */
	hg_gdata *data;		/* NULL: the files failed to load */
	unsigned pins;		/* threads whose latest record uses it */
	uint64_t used;		/* the session's tick when last handed out */
	/* A failed load: its diagnostics, and where the record that met it
	 * had its data tags (each class's data_tags, in order) and began. */
	hg_diags failure;
	char *file;
	hg_pos *tag_pos;
	hg_pos rec_pos;
} loaded;

/* A thread's latest data. */
typedef struct pin {
	pthread_t thread;
	loaded *entry;
} pin;

struct hg_session {
	hg_datapath path;
	pthread_mutex_t lock;	/* guards everything below */
	loaded **v;		/* stable pointers: pins hold them */
	size_t n, cap;
	size_t nown;		/* entries with a key */
	uint64_t tick;
	pin *pins;
	size_t npins, cappins;
};

/* A unit of work of its own, as the openers are (util.c): NULL, having
 * freed what it built, when there is no memory; inside a caller's unit the
 * failure is that unit's too. */
hg_session *hg_session_new(const char *data_dir)
{
	hg_alloc_unit u;
	hg_alloc_unit_begin(&u);
	hg_session *s = hg_try_calloc(1, sizeof *s);
	if (s && hg_datapath_try_init(&s->path, data_dir) != 0) {
		free(s);
		s = NULL;
	}
	if (s && pthread_mutex_init(&s->lock, NULL) != 0) {
		hg_alloc_failure();	/* (without attributes, it fails only short
					   of resources) */
		hg_datapath_free(&s->path);
		free(s);
		s = NULL;
	}
	hg_alloc_unit_end(&u, NULL, 0, (hg_pos){ NULL, 0, 0 });
	return s;
}

static void entry_free(loaded *e)
{
	if (e->data && e->cls->unload)
		e->cls->unload(e->data);
	hg_diags_free(&e->failure);
	free(e->file);
	free(e->tag_pos);
	free(e->key);
	free(e);
}

/* Where record `rec` has its data tags, in the class's order. */
static void tag_positions(const hg_game_class *cls, const hg_game_record *rec, hg_pos *out)
{
	size_t i = 0;
	for (const hg_data_tag *t = cls->data_tags; t && t->name; t++, i++) {
		const hg_tag *tag = hg_record_tag(rec, t->name);
		out[i] = tag ? tag->pos : (hg_pos){ NULL, 0, 0 };
	}
}

static size_t count_data_tags(const hg_game_class *cls)
{
	size_t n = 0;
	for (const hg_data_tag *t = cls->data_tags; t && t->name; t++)
		n++;
	return n;
}

/* Keeps a failed load's diagnostics for the entry (short of memory, some
 * are left out: the unit of work reports it, and the entry is not kept). */
static void keep_failure(loaded *e, const hg_game_record *rec, const hg_diags *d)
{
	hg_diags_init(&e->failure);
	for (size_t i = 0; i < d->n; i++) {
		const hg_diag *x = &d->v[i];
		hg_pos pos = { x->file, x->line, x->col };
		hg_diag *dg = hg_diag_add(&e->failure, x->severity, pos, x->code, "%s", x->message);
		for (size_t k = 0; k < x->nnotes; k++)
			hg_diag_note(dg, "%s", x->notes[k]);
	}
	e->file = hg_try_strdup(rec->file ? rec->file : "");
	size_t n = count_data_tags(e->cls);
	e->tag_pos = hg_try_calloc(n + 1, sizeof *e->tag_pos);
	if (e->tag_pos)
		tag_positions(e->cls, rec, e->tag_pos);
	e->rec_pos = rec->pos;
}

static int same_place(hg_pos a, unsigned line, unsigned col)
{
	return a.line == line && a.col == col;
}

/* A failed load's diagnostics again, for record `rec`: what was at the
 * first record's tags (or its start) is at this record's. */
static void replay_failure(const loaded *e, const hg_game_record *rec, hg_diags *d)
{
	size_t n = count_data_tags(e->cls);
	hg_pos *here = hg_try_calloc(n + 1, sizeof *here);
	if (!here)
		return;		/* (the unit of work reports it) */
	tag_positions(e->cls, rec, here);
	for (size_t i = 0; i < e->failure.n; i++) {
		const hg_diag *x = &e->failure.v[i];
		hg_pos pos = { x->file, x->line, x->col };
		if (x->file && strcmp(x->file, e->file) == 0) {
			pos.file = rec->file;
			for (size_t k = 0; k < n; k++)
				if (e->tag_pos[k].line && same_place(e->tag_pos[k], x->line, x->col))
					pos = here[k];
			if (same_place(e->rec_pos, x->line, x->col))
				pos = rec->pos;
		}
		hg_diag *dg = hg_diag_add(d, x->severity, pos, x->code, "%s", x->message);
		for (size_t k = 0; k < x->nnotes; k++)
			hg_diag_note(dg, "%s", x->notes[k]);
	}
	free(here);
}

void hg_session_free(hg_session *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		entry_free(s->v[i]);
	free(s->v);
	free(s->pins);
	hg_datapath_free(&s->path);
	pthread_mutex_destroy(&s->lock);
	free(s);
}

const hg_datapath *hg_session_datapath(const hg_session *s)
{
	return &s->path;
}

void hg_session_allow_data_path(hg_session *s, const char *dir)
{
	hg_datapath_allow(&s->path, dir);
}

size_t hg_session_loaded(hg_session *s)
{
	pthread_mutex_lock(&s->lock);
	size_t n = s->n;
	pthread_mutex_unlock(&s->lock);
	return n;
}

/* The directory a record's own data files are relative to (NULL: no
 * memory). */
static char *record_dir(const hg_game_record *rec)
{
	const char *file = rec ? rec->file : NULL;
	const char *slash = file ? strrchr(file, '/') : NULL;
	if (!slash)
		return hg_try_strdup(".");
	if (slash == file)
		return hg_try_strdup("/");
	return hg_try_strndup(file, (size_t)(slash - file));
}

/* Two records share loaded data exactly when their data tags name the same
 * files: the key is the identity (device, inode) of each file named, so
 * that one file reached by two names, or from two directories, loads
 * once.  Loading once per data set is what keeps checking a large archive
 * fast. */
static char *data_key(const hg_load_ctx *ctx, const hg_game_class *cls)
{
	hg_buf k;
	hg_buf_init(&k);
	hg_buf_puts(&k, cls->id);
	for (const hg_data_tag *t = cls->data_tags; t && t->name; t++) {
		const hg_tag *tag = hg_record_tag(ctx->rec, t->name);
		if (!tag)
			continue;
		hg_buf_printf(&k, "\n%s=", t->name);
		char **files;
		size_t nfiles = hg_data_tag_files(t, tag->value, &files);
		for (size_t i = 0; i < nfiles; i++) {
			hg_data_name name = { files[i], t->name, tag->pos, NULL, t->search };
			hg_data_id id;
			/* A file not found is keyed by its name: loading it fails
			 * and nothing is kept. */
			if (hg_data_identify(ctx, &name, &id) == 0)
				hg_buf_printf(&k, "%llu:%llu;", (unsigned long long)id.dev,
					      (unsigned long long)id.ino);
			else
				hg_buf_printf(&k, "?%s;", files[i]);
		}
		hg_strv_free(files, nfiles);
	}
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

/* Whether the record names data files of its own (the class's data tags;
 * other tags, whatever their names, load nothing). */
static int names_data_files(const hg_game_class *cls, const hg_game_record *rec)
{
	for (const hg_data_tag *t = cls->data_tags; t && t->name; t++)
		if (hg_record_tag(rec, t->name))
			return 1;
	return 0;
}

/* The cached entry for (cls, key) (key NULL: the defaults), or NULL.
 * Called with the lock held. */
static loaded *cached(const hg_session *s, const hg_game_class *cls, const char *key)
{
	for (size_t i = 0; i < s->n; i++) {
		const loaded *e = s->v[i];
		if (e->cls == cls && (key ? e->key && strcmp(e->key, key) == 0 : !e->key))
			return s->v[i];
	}
	return NULL;
}

/* Room for the calling thread's pin: 0, or -1 (out of memory).  Called
 * with the lock held, before pin_to(), which then cannot fail. */
static int pin_room(hg_session *s)
{
	pthread_t self = pthread_self();
	for (size_t i = 0; i < s->npins; i++)
		if (pthread_equal(s->pins[i].thread, self))
			return 0;
	return HG_TRY_GROW(s->pins, s->cappins, s->npins + 1);
}

/* The calling thread's latest data is now e: the data it had before may
 * go.  Called with the lock held, after pin_room(). */
static void pin_to(hg_session *s, loaded *e)
{
	pthread_t self = pthread_self();
	e->used = ++s->tick;
	for (size_t i = 0; i < s->npins; i++)
		if (pthread_equal(s->pins[i].thread, self)) {
			s->pins[i].entry->pins--;
			s->pins[i].entry = e;
			e->pins++;
			return;
		}
	HG_GROW(s->pins, s->cappins, s->npins + 1);
	s->pins[s->npins].thread = self;
	s->pins[s->npins].entry = e;
	s->npins++;
	e->pins++;
}

/* Over the bound, the least recently used data loaded from records' own
 * files that no thread holds goes.  Called with the lock held. */
static void evict(hg_session *s)
{
	while (s->nown > HG_SESSION_MAX_OWN_DATA) {
		size_t victim = s->n;
		for (size_t i = 0; i < s->n; i++) {
			const loaded *e = s->v[i];
			if (e->key && e->pins == 0 &&
			    (victim == s->n || e->used < s->v[victim]->used))
				victim = i;
		}
		if (victim == s->n)
			return;		/* every one is in use: kept until the next time */
		entry_free(s->v[victim]);
		s->v[victim] = s->v[--s->n];
		s->nown--;
	}
}

/* A new cache entry for what cls->load gave (NULL: a failed load, whose
 * diagnostics `loading` holds), linked in; NULL when there is no memory
 * for it.  `key` becomes the entry's.  Called with the lock held. */
static loaded *cache_add(hg_session *s, const hg_game_class *cls, char *key,
			 hg_gdata *fresh, const hg_game_record *rec, const hg_diags *loading)
{
	loaded *e = HG_TRY_GROW(s->v, s->cap, s->n + 1) == 0 ? hg_try_calloc(1, sizeof *e)
							      : NULL;
	if (!e) {
		free(key);
		if (fresh && cls->unload)
			cls->unload(fresh);
		return NULL;
	}
	e->cls = cls;
	e->key = key;
	e->data = fresh;
	if (!fresh)
		keep_failure(e, rec, loading);
	if (hg_alloc_lost()) {
		entry_free(e);
		return NULL;
	}
	s->v[s->n++] = e;
	if (e->key)
		s->nown++;
	return e;
}

static int prepare(hg_session *s, const hg_game_record *rec,
		   const hg_game_class **cls_out, const hg_gdata **data_out, hg_diags *d);

int hg_session_prepare(hg_session *s, const hg_game_record *rec,
		       const hg_game_class **cls_out, const hg_gdata **data_out,
		       hg_diags *d)
{
	/* A unit of work (util.c): the data loading and the cache report
	 * allocation failure; nothing is cached then. */
	hg_alloc_unit u;
	size_t ndiags = d->n;
	hg_alloc_unit_begin(&u);
	int rc = prepare(s, rec, cls_out, data_out, d);
	if (hg_alloc_unit_end(&u, d, ndiags, rec->pos) == HG_ENOMEM)
		return HG_ENOMEM;
	return rc;
}

static int prepare(hg_session *s, const hg_game_record *rec,
		   const hg_game_class **cls_out, const hg_gdata **data_out, hg_diags *d)
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
	/* Most records use the default data, found without building a key
	 * (this runs once per game checked). */
	int own_files = names_data_files(cls, rec);
	if (!own_files) {
		pthread_mutex_lock(&s->lock);
		loaded *e = cached(s, cls, NULL);
		int room = e ? pin_room(s) : -1;
		if (room == 0) {
			pin_to(s, e);
			*data_out = e->data;
		}
		pthread_mutex_unlock(&s->lock);
		if (e)
			return room;
	}
	char *dir = record_dir(rec);
	hg_load_ctx ctx = { &s->path, rec, dir };
	char *key = own_files && dir ? data_key(&ctx, cls) : NULL;
	if (hg_alloc_lost()) {	/* (a key cut short finds no entry) */
		free(dir);
		free(key);
		return -1;
	}
	int rc = 0;
	/* Loading happens under the lock, so that two threads never load the
	 * same data twice, and nobody reads the cache while it changes. */
	pthread_mutex_lock(&s->lock);
	loaded *e = pin_room(s) == 0 ? cached(s, cls, key) : NULL;
	if (!e && !hg_alloc_lost()) {
		hg_buf loader_key;
		hg_buf_init(&loader_key);
		hg_diags loading;
		hg_diags_init(&loading);
		hg_gdata *fresh = cls->load(&ctx, &loader_key, &loading);
		hg_buf_free(&loader_key);
		if (hg_alloc_lost() && fresh && cls->unload) {
			cls->unload(fresh);	/* built short of memory: not kept */
			fresh = NULL;
		}
		/* The defaults failing is no record's doing, nor a failure for
		 * want of memory: neither is kept. */
		if ((fresh || key) && !hg_alloc_lost()) {
			e = cache_add(s, cls, key, fresh, rec, &loading);
			key = NULL;
		}
		hg_diags_move(d, &loading);
		hg_diags_free(&loading);
	} else if (e && !e->data) {
		replay_failure(e, rec, d);
	}
	if (e) {
		pin_to(s, e);
		evict(s);
	}
	if (e && e->data)
		*data_out = e->data;
	else
		rc = -1;
	pthread_mutex_unlock(&s->lock);
	free(dir);
	free(key);
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
		if (hg_alloc_lost())
			break;		/* the rest stays as it is */
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
			hg_action *a = hg_engine_parse(cls, st, &n->action, d);
			if (!a) {
				rc = -1;
				continue;
			}
			int lost = hg_engine_format(cls, st, a, &seat, &body);
			cls->free_action(a);
			if (lost)
				break;	/* (the unit of work reports it) */
		}
		if (hg_buf_failed(&seat) || hg_buf_failed(&body))
			break;
		/* An action already in canonical spelling keeps its text and
		 * its tokens, as read (their positions too). */
		if (hg_action_text_spells(&n->action, seat.data ? seat.data : "", seat.len,
					  body.data ? body.data : "", body.len))
			continue;
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

static int canonicalize(hg_session *s, hg_game_record *rec, hg_diags *d)
{
	const hg_game_class *cls;
	const hg_gdata *data;
	if (hg_session_prepare(s, rec, &cls, &data, d) != 0)
		return -1;
	hg_state *st = hg_engine_setup(cls, data, rec, d);
	if (!st)
		return -1;
	int rc = canonicalize_line(cls, st, &rec->moves, d);
	cls->free_state(st);
	return rc;
}

/* A unit of work (util.c): short of memory, each action is left as it was
 * or rewritten whole, and the call returns HG_ENOMEM. */
int hg_canonicalize(hg_session *s, hg_game_record *rec, hg_diags *d)
{
	hg_alloc_unit u;
	size_t ndiags = d->n;
	hg_alloc_unit_begin(&u);
	int rc = canonicalize(s, rec, d);
	return hg_alloc_unit_end(&u, d, ndiags, rec->pos) == HG_ENOMEM ? HG_ENOMEM : rc;
}
