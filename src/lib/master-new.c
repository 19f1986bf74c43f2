/* master-new.c - a correspondence game begun (herald-new(1)): the master
 * record, with SeedCommit and the chance the seed already decides, and its
 * key file, which holds the secret (master.c says why the key is apart).
 *
 * hg_master_new is a unit of work (util.c) that reports allocation
 * failure; hg_master_key_create allocates nothing. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "engine-call.h"
#include "master-impl.h"

/* Writes the n bytes at s to fd: 0, or an errno. */
static int write_all(int fd, const char *s, size_t n)
{
	size_t off = 0;
	while (off < n) {
		ssize_t w = write(fd, s + off, n - off);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		off += (size_t)w;
	}
	return 0;
}

int hg_master_key_create(const char *key_path, const char *secret)
{
	int fd = open(key_path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	/* (no copy of the secret is made: nothing to allocate, or to wipe) */
	int saved = write_all(fd, secret, strlen(secret));
	if (!saved)
		saved = write_all(fd, "\n", 1);
	if (!saved && fsync(fd) != 0)
		saved = errno;
	if (close(fd) != 0 && !saved)
		saved = errno;
	if (saved) {
		unlink(key_path);
		errno = saved;
		return -1;
	}
	return 0;
}

/* hg_master_new's work, in its unit: the record (or NULL), which the
 * caller frees when memory ran out. */
static hg_game_record *master_new(hg_session *s, const hg_master_new_opts *o,
				  char secret[HG_FAIR_HEX_LEN + 1], hg_diags *d)
{
	hg_pos pos = no_pos(o->file);
	const hg_game_class *cls = hg_game_find(o->game);
	if (!cls) {
		hg_diag_add(d, HG_ERROR, pos, "master.game", "'%s' is not a game herald knows",
			    o->game);
		return NULL;
	}
	if (!cls->seat_name) {
		hg_diag_add(d, HG_ERROR, pos, "master.game", "%s cannot be played remotely",
			    cls->title);
		return NULL;
	}
	if (hg_fair_secret_new(secret) != 0) {
		hg_diag_add(d, HG_ERROR, pos, "master.random",
			    "libsodium cannot start: no secret seed can be drawn");
		return NULL;
	}
	hg_game_record *proto = hg_record_try_new(o->file);
	const hg_game_class *found;
	const hg_gdata *data;
	if (!proto || hg_record_try_set_tag(proto, "Game", cls->id) != 0 ||
	    hg_session_prepare(s, proto, &found, &data, d) != 0) {
		hg_record_free(proto);
		return NULL;
	}
	/* The game's own set-up tags (a scenario, decks, who plays first)
	 * drawn as `herald gen` draws them, from a stream of the secret's
	 * commitment: nothing in them tells the secret. */
	char commit[HG_FAIR_HEX_LEN + 1];
	hg_fair_commit(secret, commit);
	hg_prng r;
	hg_buf setup_seed;
	hg_buf_init(&setup_seed);
	hg_buf_printf(&setup_seed, "%s/setup", commit);
	int rc = -1;
	if (!hg_buf_failed(&setup_seed)) {
		hg_prng_seed(&r, setup_seed.data);
		rc = hg_engine_gen_tags(cls, data, &r, (unsigned)o->nplayers, o->variant, proto, d);
	}
	hg_buf_free(&setup_seed);
	if (rc != 0) {
		hg_record_free(proto);
		return NULL;
	}

	/* Each tag set, or the unit has failed (checked before the deal). */
	hg_game_record *rec = hg_record_try_new(o->file);
	if (!rec) {
		hg_record_free(proto);
		return NULL;
	}
	hg_record_try_set_tag(rec, "Game", cls->id);
	hg_record_try_set_tag(rec, "Date", o->date ? o->date : "????.??.??");
	hg_buf players;
	hg_buf_init(&players);
	hg_buf_join(&players, o->players, o->nplayers, "; ");
	hg_record_try_set_tag(rec, "Players", players.data ? players.data : "");
	hg_buf_free(&players);
	hg_record_try_set_tag(rec, "Result", "*");
	/* The game's tags, but not a Seed (the chance is the committed
	 * seed's) nor a First the Seed drew (the lot is the seed's too). */
	for (size_t i = 0; i < proto->ntags; i++) {
		const hg_tag *t = &proto->tags[i];
		if (!hg_record_tag(rec, t->name) && strcmp(t->name, "Seed") != 0 &&
		    strcmp(t->name, "First") != 0)
			hg_record_try_set_tag(rec, t->name, t->value);
	}
	hg_record_free(proto);
	hg_record_try_set_tag(rec, "SeedCommit", commit);
	char name[32];
	for (size_t i = 0; i < o->nplayers; i++)
		if (o->entropy && o->entropy[i]) {
			snprintf(name, sizeof name, "Entropy%zu", i + 1);
			hg_record_try_set_tag(rec, name, o->entropy[i]);
		}
	free(rec->result);
	rec->result = hg_try_strdup("*");
	if (hg_alloc_lost())
		return rec;	/* (freed by the caller) */

	/* The opening deal: the chance before any seat decides. */
	hg_master m;
	memset(&m, 0, sizeof m);
	m.session = s;
	m.rec = rec;
	m.cls = cls;
	memcpy(m.secret, secret, sizeof m.secret);
	if (hg_record_try_set_tag(rec, "SeedReveal", secret) == 0)
		m.st = hg_engine_setup(cls, data, rec, d);
	hg_record_remove_tag(rec, "SeedReveal");
	rc = m.st ? (o->await_entropy ? 0 : hg_master_fill_chance(&m, d)) : -1;
	if (m.st)
		cls->free_state(m.st);
	hg_pending_free(&m.opened);
	sodium_memzero(m.secret, sizeof m.secret);
	if (rc != 0) {
		hg_record_free(rec);
		return NULL;
	}
	return rec;
}

hg_game_record *hg_master_new(hg_session *s, const hg_master_new_opts *o,
			      char secret[HG_FAIR_HEX_LEN + 1], hg_diags *d)
{
	hg_alloc_unit u;
	size_t ndiags = d->n;
	hg_alloc_unit_begin(&u);
	hg_game_record *rec = master_new(s, o, secret, d);
	if (hg_alloc_unit_end(&u, d, ndiags, no_pos(o->file)) == HG_ENOMEM) {
		hg_record_free(rec);
		return NULL;
	}
	return rec;
}
