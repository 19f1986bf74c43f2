/* master.c - herald as the game master of a correspondence game
 * (herald-new(1), herald-move(1), herald-reveal(1), herald-end(1)).
 *
 * The master record is an ordinary record that carries SeedCommit and the
 * seats' Entropy<n> tags; the secret lives in the key file beside it
 * (<record>.key, mode 0600).  To act, herald takes an exclusive lock on the
 * key file, replays the record with the secret (as if it were revealed, in
 * memory only), appends the seat's action and whatever chance follows it,
 * and rewrites the record atomically.  The key file is locked rather than
 * the record because the record is replaced by rename on every write: a
 * lock on it would lock a file that is no longer the record.
 *
 * The game is begun in master-new.c; the chance herald writes into it from
 * the seed, in master-chance.c.
 *
 * Each public call is a unit of work (util.c) that reports allocation
 * failure: whatever allocates is done before the first file is written
 * (commit()), so that memory running out leaves the record, its key and a
 * pending action's secret as they were. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "engine-call.h"
#include "master-impl.h"


/* path followed by suffix, malloc'd; NULL short of memory (hg_try_*). */
static char *suffixed(const char *path, const char *suffix)
{
	size_t n = strlen(path), k = strlen(suffix);
	char *s = hg_try_malloc(n + k + 1);
	if (s) {
		memcpy(s, path, n);
		memcpy(s + n, suffix, k + 1);
	}
	return s;
}

char *hg_master_key_path(const char *record_path)
{
	hg_alloc_unit u;
	hg_alloc_unit_begin(&u);
	char *path = suffixed(record_path, ".key");
	hg_alloc_unit_end(&u, NULL, 0, no_pos(NULL));
	return path;
}

/* The seat of the player named `name`, the players read as
 * hg_record_players reads them (the Players tag in seat order, else the
 * Seat<n> tags) one at a time; -1 when none is (or short of memory). */
static int player_seat(const hg_game_record *rec, const char *name)
{
	const char *players = hg_record_tag_value(rec, "Players");
	if (!players) {
		char tag[32];
		for (unsigned i = 1; i < 1000; i++) {
			snprintf(tag, sizeof tag, "Seat%u", i);
			const char *player = hg_record_tag_value(rec, tag);
			if (!player)
				break;
			if (hg_name_eq(player, name))
				return (int)i - 1;
		}
		return -1;
	}
	if (hg_record_nplayers(rec) == 0)
		return -1;
	hg_buf one;
	hg_buf_init(&one);
	int seat = -1;
	for (int i = 0; seat < 0 && !hg_buf_failed(&one); i++) {
		const char *semi = strchr(players, ';');
		size_t len = semi ? (size_t)(semi - players) : strlen(players);
		const char *start = players;
		while (len && (*start == ' ' || *start == '\t')) {
			start++;
			len--;
		}
		while (len && (start[len - 1] == ' ' || start[len - 1] == '\t'))
			len--;
		hg_buf_clear(&one);
		hg_buf_putn(&one, start, len);
		if (!hg_buf_failed(&one) && hg_name_eq(one.data ? one.data : "", name))
			seat = i;
		if (!semi)
			break;
		players = semi + 1;
	}
	hg_buf_free(&one);
	return seat;
}

/* The seat named by its canonical name, or by its player's name; -1 when
 * neither. */
static int seat_of(const hg_master *m, const char *name)
{
	int seat = hg_seat_index(m->cls, m->st, name);
	if (seat >= 0 || !name)
		return seat;
	seat = player_seat(m->rec, name);
	return seat >= 0 && m->cls->seat_name(m->st, (unsigned)seat) ? seat : -1;
}

/* Is some legal action the seat's?  (Whose turn it is does not say: in a
 * war or an attack, other seats answer within the turn.) */
static int may_act(hg_master *m, const char *seat)
{
	const hg_game_class *cls = m->cls;
	if (cls->result(m->st))
		return 0;
	hg_action_list legal = { 0 };
	hg_engine_legal(cls, m->st, &legal);
	hg_buf s, b;
	hg_buf_init(&s);
	hg_buf_init(&b);
	int yes = 0;
	for (size_t i = 0; i < legal.n && !yes; i++) {
		hg_buf_clear(&s);
		if (hg_engine_format(cls, m->st, legal.v[i], &s, &b) != 0)
			break;	/* (the unit has failed) */
		yes = s.data && strcmp(s.data, seat) == 0;
	}
	hg_master_free_list(cls, &legal);
	hg_buf_free(&s);
	hg_buf_free(&b);
	return yes;
}

/* ------------------------------------------------------------ open */

static int read_secret(int fd, const char *key_path, char secret[HG_FAIR_HEX_LEN + 1],
		       hg_diags *d)
{
	char buf[HG_FAIR_HEX_LEN + 4];
	size_t len = 0;
	for (;;) {
		ssize_t n = read(fd, buf + len, sizeof buf - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			hg_diag_add(d, HG_ERROR, no_pos(key_path), "master.key",
				    "cannot read the key file: %s", strerror(errno));
			return -1;
		}
		if (n == 0 || (len += (size_t)n) == sizeof buf)
			break;
	}
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
		len--;
	char check[HG_FAIR_HEX_LEN + 1];
	if (len == HG_FAIR_HEX_LEN) {
		memcpy(secret, buf, len);
		secret[len] = '\0';
	}
	sodium_memzero(buf, sizeof buf);
	if (len != HG_FAIR_HEX_LEN || hg_fair_commit(secret, check) != 0) {
		hg_diag_add(d, HG_ERROR, no_pos(key_path), "master.key",
			    "the key file does not hold a secret seed (64 lowercase hexadecimal digits)");
		return -1;
	}
	return 0;
}

/* The record's one game. */
static hg_game_record *read_record(const char *path, hg_diags *d)
{
	hg_parser *p = hg_parser_open_file(path, d);
	if (!p)
		return NULL;
	hg_game_record *rec = NULL, *extra = NULL;
	size_t errors = d->nerrors;
	int rc = hg_parser_next(p, &rec, d);
	int malformed = d->nerrors > errors;
	if (rc == 1 && hg_parser_next(p, &extra, d) == 1) {
		hg_diag_add(d, HG_ERROR, extra->pos, "master.record",
			    "a master record holds one game; this file holds more");
		hg_record_free(extra);
	} else if (rc == 0) {
		hg_diag_add(d, HG_ERROR, no_pos(path), "master.record", "the file holds no game");
	}
	hg_parser_close(p);
	if (rc == 1 && malformed)
		hg_diag_add(d, HG_ERROR, no_pos(path), "master.record",
			    "the master record is malformed: herald will not add to it");
	if (rc != 1 || d->nerrors > errors) {
		hg_record_free(rec);
		return NULL;
	}
	return rec;
}

static void count_main_line(hg_master *m)
{
	const hg_line *l = &m->rec->moves;
	for (size_t i = 0; i < l->n; i++) {
		if (l->nodes[i].kind == HG_NODE_ACTION)
			m->nactions++;
		else if (l->nodes[i].kind == HG_NODE_MOVENUM)
			m->last_turn = l->nodes[i].number;
	}
}

/* hg_master_open's work, in its unit: the master (or NULL), which the
 * caller closes when memory ran out. */
static hg_master *master_open(hg_session *s, const char *path, const char *key_path,
			      int wait, hg_diags *d)
{
	hg_master *m = hg_try_calloc(1, sizeof *m);
	if (!m)
		return NULL;
	m->session = s;
	m->lock_fd = -1;
	m->path = hg_try_strdup(path);
	m->key_path = key_path ? hg_try_strdup(key_path) : suffixed(path, ".key");
	if (!m->path || !m->key_path) {
		hg_master_close(m);
		return NULL;
	}
	m->lock_fd = open(m->key_path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (m->lock_fd < 0) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, no_pos(m->key_path), "master.key",
					  "cannot open the key file: %s", strerror(errno));
		hg_diag_note(dg, "the game master's secret is in <record>.key, made by 'herald new' (herald-new(1))");
		hg_master_close(m);
		return NULL;
	}
	while (flock(m->lock_fd, LOCK_EX | (wait ? 0 : LOCK_NB)) != 0) {
		if (errno == EINTR)
			continue;
		hg_diag *dg = hg_diag_add(d, HG_ERROR, no_pos(m->path), "master.locked",
					  errno == EWOULDBLOCK ?
					  "another herald is changing this game now" :
					  "cannot lock the key file: %s", strerror(errno));
		hg_diag_note(dg, "nothing was written; try again");
		hg_master_close(m);
		return NULL;
	}
	if (read_secret(m->lock_fd, m->key_path, m->secret, d) != 0) {
		hg_master_close(m);
		return NULL;
	}
	m->rec = read_record(path, d);
	if (!m->rec) {
		hg_master_close(m);
		return NULL;
	}
	const hg_tag *commit = hg_record_tag(m->rec, "SeedCommit");
	char mine[HG_FAIR_HEX_LEN + 1];
	hg_fair_commit(m->secret, mine);
	if (!commit || strcmp(commit->value, mine) != 0) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, commit ? commit->pos : m->rec->pos, "master.key",
					  commit ? "the key file's secret is not the one this record commits to"
						 : N_("the record commits to no secret seed (no SeedCommit tag)"));
		hg_diag_note(dg, "%s: the key file", m->key_path);
		hg_master_close(m);
		return NULL;
	}
	/* The record as it would be revealed, in memory only. */
	int revealed = hg_record_tag(m->rec, "SeedReveal") != NULL;
	if (!revealed && hg_record_try_set_tag(m->rec, "SeedReveal", m->secret) != 0) {
		hg_master_close(m);
		return NULL;
	}
	hg_check_result res;
	int rc = hg_check_game(s, m->rec, d, NULL, &res, &m->st, &m->cls);
	if (!revealed)
		hg_record_remove_tag(m->rec, "SeedReveal");
	if (rc != 0 || !m->st) {
		if (rc != HG_ENOMEM)
			hg_diag_add(d, HG_ERROR, m->rec->pos, "master.record",
				    "the master record does not replay: herald will not add to it");
		hg_master_close(m);
		return NULL;
	}
	count_main_line(m);
	return m;
}

hg_master *hg_master_open(hg_session *s, const char *path, const char *key_path,
			  int wait, hg_diags *d)
{
	hg_alloc_unit u;
	size_t ndiags = d->n;
	hg_alloc_unit_begin(&u);
	hg_master *m = master_open(s, path, key_path, wait, d);
	if (hg_alloc_unit_end(&u, d, ndiags, no_pos(path)) == HG_ENOMEM) {
		hg_master_close(m);	/* (which releases the lock) */
		return NULL;
	}
	return m;
}

void hg_master_close(hg_master *m)
{
	if (!m)
		return;
	if (m->st && m->cls)
		m->cls->free_state(m->st);
	hg_record_free(m->rec);
	hg_pending_free(&m->opened);
	if (m->lock_fd >= 0)
		close(m->lock_fd);	/* releases the lock */
	sodium_memzero(m->secret, sizeof m->secret);
	free(m->path);
	free(m->key_path);
	free(m);
}

const hg_game_record *hg_master_record(const hg_master *m)
{
	return m->rec;
}

size_t hg_master_actions(const hg_master *m)
{
	return m->nactions;
}

/* The game is closed: a result or an early ending is declared, or the
 * seed is revealed. */
static int closed(const hg_master *m, hg_diags *d)
{
	const char *why = NULL;
	if (hg_record_tag(m->rec, "SeedReveal"))
		why = "its seed is revealed";
	else if (m->rec->result && strcmp(m->rec->result, "*") != 0)
		why = "it is over";
	if (!why)
		return 0;
	hg_diag *dg = hg_diag_add(d, HG_ERROR, m->rec->pos, "master.over",
				  "the game takes no more moves: %s", why);
	if (m->rec->result && strcmp(m->rec->result, "*") != 0)
		hg_diag_note(dg, "the result is '%s'", m->rec->result);
	return 1;
}

/* The end of a public call's unit of work: HG_ENOMEM when memory ran out
 * in it (its diagnostics replaced by hg.out-of-memory), else its status. */
static int master_unit_end(hg_alloc_unit *u, const hg_master *m, hg_diags *d, size_t ndiags,
			   int rc)
{
	return hg_alloc_unit_end(u, d, ndiags, no_pos(m->path)) == HG_ENOMEM ? HG_ENOMEM : rc;
}

static void set_result(hg_master *m, const char *result)
{
	hg_record_try_set_tag(m->rec, "Result", result);
	free(m->rec->result);
	m->rec->result = hg_try_strdup(result);	/* (NULL: the unit has failed) */
}

/* What the seat is told: its own actions whole, and of the others' only
 * who acted and the action's first word (a draw's cards are its seat's). */
static void tell(hg_master *m, const char *seat, size_t from, hg_buf *told)
{
	const hg_line *l = &m->rec->moves;
	size_t k = 0;
	for (size_t i = 0; i < l->n; i++) {
		const hg_node *n = &l->nodes[i];
		if (n->kind != HG_NODE_ACTION || k++ < from)
			continue;
		if (hg_name_eq(n->action.seat, seat))
			hg_buf_printf(told, "%s: %s\n", n->action.seat, n->action.text);
		else
			hg_buf_printf(told, "%s: %s ...\n", n->action.seat,
				      n->action.ntoks ? n->action.toks[0].text : "");
	}
	const char *result = m->cls->result(m->st);
	if (m->rec->result && strcmp(m->rec->result, "*") != 0)
		hg_buf_printf(told, "the game is over: %s\n", m->rec->result);
	else if (result)
		hg_buf_printf(told, "the game is over: %s\n", result);
	else if (m->has_opened)
		hg_pending_summary(&m->opened, told);
	else
		hg_buf_printf(told, "to move: %s\n", m->cls->to_move(m->st));
	hg_buf_printf(told, "actions: %zu\n", m->nactions);
}

/* ------------------------------------------------------------ pending */

/* The secret of an action held pending: beside the key file (NULL short
 * of memory). */
static char *pending_path(const hg_master *m)
{
	return suffixed(m->key_path, ".pending");
}

/* The game ends (a resignation, the organiser's ending) with an action
 * pending: it is dropped from the record, and its secret once the record
 * is written (commit's drop_secret). */
static void drop_pending(hg_master *m)
{
	hg_pending_clear_tags(m->rec);
}

/* What a seat is told after its step: its own part, and what everyone
 * knows of the pending action. */
static void tell_pending(const hg_master *m, const hg_pending *p, const char *seat,
			 hg_buf *told)
{
	for (size_t i = 0; i < p->nparts; i++)
		if (strcmp(p->parts[i].seat, seat) == 0)
			hg_buf_printf(told, "%s: %s\n", seat, p->parts[i].text ? p->parts[i].text : "");
	hg_pending_summary(p, told);
	hg_buf_printf(told, "actions: %zu\n", m->nactions);
}

/* ------------------------------------------------------------ writing */

/* Writes the change out: the secret of the action held pending (p, when
 * given) first, then the record that names it (a record that awaits a
 * seat whose step the secret already holds only takes that step again);
 * then, the record written, the secret of a pending action that ended is
 * removed (drop_secret) and `answer` is appended to told.  Everything that
 * allocates is done before the first file is written (the secret's text
 * and names too): when memory has run out in the call (hg_alloc_lost),
 * nothing is written and -1 is returned (the unit reports it).  0, or -1
 * with the record as it was. */
static int commit(hg_master *m, const hg_pending *p, int drop_secret, const hg_buf *answer,
		  hg_buf *told, hg_diags *d)
{
	char *secret_path = p || drop_secret ? pending_path(m) : NULL;
	hg_pending_secret secret;
	int secret_made = -1, secret_errno = 0;
	if (p) {
		hg_pending_to_tags(m->rec, p);	/* (HG_ENOMEM: the unit's failure) */
		if (secret_path)
			secret_made = hg_pending_secret_make(&secret, secret_path,
							     hg_record_tag_value(m->rec, "SeedCommit"),
							     m->nactions, p);
		if (secret_made != 0)
			secret_errno = errno;
	}
	hg_buf out;
	hg_buf_init(&out);
	hg_write_hgn(m->rec, &out);	/* (HG_ENOMEM is the unit's failure too) */
	if (answer && answer->len)
		hg_buf_reserve(told, answer->len);
	hg_atomic_names names;
	int named = hg_atomic_names_make(&names, m->path);
	int rc = -1;
	if (hg_alloc_lost())
		goto done;	/* (a record cut short is never written) */
	if (named != 0) {
		hg_diag_add(d, HG_ERROR, no_pos(m->path), "master.io", "cannot write the record: %s",
			    strerror(errno));
		goto done;
	}
	if (p) {
		if (secret_made == 0 && hg_pending_secret_put(&secret) != 0)
			secret_errno = errno;
		if (secret_made != 0 || secret_errno != 0) {
			hg_diag_add(d, HG_ERROR, no_pos(secret_path), "master.io",
				    "cannot write the pending action's secret: %s",
				    strerror(secret_errno));
			goto done;
		}
	}
	if (hg_atomic_write(&names, out.data ? out.data : "", out.len) != 0) {
		hg_diag_add(d, HG_ERROR, no_pos(m->path), "master.io", "cannot write the record: %s",
			    strerror(errno));
		goto done;
	}
	rc = 0;
	/* Nothing below allocates: the record is written. */
	if (drop_secret)
		unlink(secret_path);
	if (answer && answer->len)
		hg_buf_putn(told, answer->data, answer->len);
done:
	if (named == 0)
		hg_atomic_names_free(&names);
	if (secret_made == 0)
		hg_pending_secret_free(&secret);
	hg_buf_free(&out);
	free(secret_path);
	return rc;
}

/* Writes the record after fill_chance: with the action it held pending,
 * its secret and tags, when it opened one. */
static int write_out(hg_master *m, int drop_secret, const hg_buf *answer, hg_buf *told,
		     hg_diags *d)
{
	return commit(m, m->has_opened ? &m->opened : NULL, drop_secret && !m->has_opened, answer,
		      told, d);
}

/* A seat's step in the action held pending; the last step writes the
 * whole action.  0, or -1 with nothing written. */
static int pending_step(hg_master *m, hg_pending *p, const char *seat, const char *text,
			size_t before, hg_buf *told, hg_diags *d)
{
	const hg_game_class *cls = m->cls;
	if (!hg_pending_awaits(p, seat)) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, no_pos(m->path), "master.turn",
					  "%s's %s waits for the answer of another seat, not of %s",
					  p->seat, p->declared, seat);
		hg_buf who;
		hg_buf_init(&who);
		hg_buf_join(&who, p->awaited, p->nawaited, ", ");
		hg_diag_note(dg, "awaited: %s", who.data ? who.data : "none");
		hg_buf_free(&who);
		return -1;
	}
	char *path = pending_path(m);
	int rc = -1;
	if (path)
		rc = hg_pending_secret_read(path, hg_record_tag_value(m->rec, "SeedCommit"),
					    m->nactions, p, d);
	free(path);
	if (rc == 0)
		rc = hg_engine_pending_answer(cls, m->st, p, seat, text, d);
	if (rc != 0)
		return -1;	/* (HG_ENOMEM: the unit reports it) */
	hg_buf answer;
	hg_buf_init(&answer);
	if (p->nawaited > 0) {
		tell_pending(m, p, seat, &answer);
		rc = commit(m, p, 0, &answer, told, d);
		hg_buf_free(&answer);
		return rc;
	}
	hg_buf whole;
	hg_buf_init(&whole);
	rc = hg_engine_pending_finish(cls, m->st, p, &whole, d);
	if (rc == 0) {
		hg_master_number_turn(m);
		rc = hg_master_append(m, p->seat, whole.data ? whole.data : "", d);
	}
	hg_buf_free(&whole);
	if (rc == 0)
		rc = hg_master_fill_chance(m, d);
	if (rc == 0) {
		const char *result = cls->result(m->st);
		if (result)
			set_result(m, result);
		hg_pending_clear_tags(m->rec);
		tell(m, seat, before, &answer);
		rc = write_out(m, 1, &answer, told, d);
	}
	hg_buf_free(&answer);
	return rc == 0 ? 0 : -1;
}

/* The seat's action opens a pending action when the game holds it
 * pending: 1 (written), 0 (not pending: play it whole), -1. */
static int pending_open(hg_master *m, const char *seat, const char *body, hg_buf *told,
			hg_diags *d)
{
	if (!m->cls->pending_open)
		return 0;
	hg_pending p;
	memset(&p, 0, sizeof p);
	int rc = hg_engine_pending_open(m->cls, m->st, seat, body, &p, d);
	if (rc == HG_ENOMEM)
		rc = -1;	/* (the unit reports it) */
	if (rc == 1) {
		hg_buf answer;
		hg_buf_init(&answer);
		tell_pending(m, &p, seat, &answer);
		rc = commit(m, &p, 0, &answer, told, d) == 0 ? 1 : -1;
		hg_buf_free(&answer);
	}
	hg_pending_free(&p);
	return rc;
}

/* ------------------------------------------------------------ move */

/* A resignation: the game's result, written at once. */
static int resign(hg_master *m, unsigned seat_i, const char *seat, hg_action_text *t,
		  size_t before, hg_buf *told, hg_diags *d)
{
	drop_pending(m);
	hg_master_number_turn(m);
	hg_node *n = hg_line_try_push(&m->rec->moves, HG_NODE_ACTION, no_pos(m->rec->file));
	if (!n)
		return -1;
	n->action = *t;
	memset(t, 0, sizeof *t);
	m->nactions++;
	hg_buf result;
	hg_buf_init(&result);
	if (hg_resign_result(m->cls, m->st, seat_i, &result) != 0) {
		hg_buf_free(&result);
		return -1;	/* (the unit reports it: nothing is written) */
	}
	set_result(m, result.data ? result.data : "");
	hg_buf_free(&result);
	hg_record_try_set_tag(m->rec, "Termination", "resignation");
	hg_buf answer;
	hg_buf_init(&answer);
	tell(m, seat, before, &answer);
	int rc = commit(m, NULL, 1, &answer, told, d);
	hg_buf_free(&answer);
	return rc;
}

/* The seat's action as herald writes it: its chance filled in, from the
 * text as written (which may leave the chance out, and so not parse) or
 * else in canonical spelling; or the action as check reads it (illegal
 * here is illegal there).  Appended: 0, or -1. */
static int play_whole(hg_master *m, const char *seat, const hg_action_text *t, hg_diags *d)
{
	const hg_game_class *cls = m->cls;
	hg_buf filled, cseat, canon;
	hg_buf_init(&filled);
	hg_buf_init(&cseat);
	hg_buf_init(&canon);
	const char *written = NULL;
	if (hg_master_complete_chance(m, seat, t->text, &filled) == 0) {
		written = filled.data;
	} else {
		hg_action *a = hg_engine_parse(cls, m->st, t, d);
		if (a) {
			hg_engine_format(cls, m->st, a, &cseat, &canon);	/* (failed: below) */
			cls->free_action(a);
			hg_buf_clear(&filled);
			written = hg_master_complete_chance(m, seat, canon.data ? canon.data : "", &filled) == 0 ?
				  filled.data : (canon.data ? canon.data : "");
		}
	}
	int rc = -1;
	if (written && !hg_alloc_lost()) {
		hg_master_number_turn(m);
		rc = hg_master_append(m, seat, written, d);
	}
	hg_buf_free(&cseat);
	hg_buf_free(&canon);
	hg_buf_free(&filled);
	return rc;
}

static int master_move(hg_master *m, const char *seat_name, const char *text, long after,
		       hg_buf *told, hg_diags *d)
{
	const hg_game_class *cls = m->cls;
	hg_pos pos = no_pos(m->path);
	if (closed(m, d))
		return -1;
	if (after >= 0 && (size_t)after != m->nactions) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, pos, "master.stale",
					  "the move answers the game after %ld actions, but it has %zu now",
					  after, m->nactions);
		hg_diag_note(dg, "look at the game again ('herald next') and answer the position it shows");
		return -1;
	}
	int seat_i = seat_of(m, seat_name);
	if (seat_i < 0) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, pos, "master.seat",
					  "'%s' holds no seat of this game", seat_name);
		hg_buf seats;
		hg_buf_init(&seats);
		hg_seats_list(cls, m->st, &seats);
		hg_diag_note(dg, "the seats players hold: %s", seats.data ? seats.data : "none");
		hg_buf_free(&seats);
		return -1;
	}
	const char *seat = cls->seat_name(m->st, (unsigned)seat_i);
	/* `SEAT: body` in the text must be the same seat. */
	const char *colon = strchr(text, ':');
	if (colon && !memchr(text, ' ', (size_t)(colon - text))) {
		char *written = hg_try_strndup(text, (size_t)(colon - text));
		if (!written)
			return -1;
		int other = !hg_name_eq(written, seat);
		if (other)
			hg_diag_add(d, HG_ERROR, pos, "master.seat",
				    "a move for %s cannot be made as %s", written, seat);
		free(written);
		if (other)
			return -1;
		text = colon + 1;
	}
	while (*text == ' ' || *text == '\t' || *text == '\n')
		text++;
	hg_buf body;
	hg_buf_init(&body);
	hg_buf_puts(&body, text);
	while (body.len && (body.data[body.len - 1] == '\n' || body.data[body.len - 1] == ' '))
		body.data[--body.len] = '\0';
	size_t before = m->nactions;
	int rc = -1;
	hg_action_text t;
	memset(&t, 0, sizeof t);
	if (hg_buf_failed(&body) ||
	    hg_action_text_set(&t, seat, body.data ? body.data : "", pos, d) != 0)
		goto out;
	if (hg_action_is_resign(&t)) {
		rc = resign(m, (unsigned)seat_i, seat, &t, before, told, d);
		goto out;
	}
	hg_buf chance_seat, chance_body;
	hg_buf_init(&chance_seat);
	hg_buf_init(&chance_body);
	int awaiting = m->nactions == 0 && hg_master_next_chance(m, &chance_seat, &chance_body);
	hg_buf_free(&chance_seat);
	hg_buf_free(&chance_body);
	if (awaiting) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, pos, "master.entropy",
					  "the game waits for the seats' entropy before its first deal");
		hg_diag_note(dg, "each seat gives its word with 'herald entropy'; the organiser may deal with 'herald entropy --deal'");
		goto out;
	}
	hg_pending held;
	int holds;
	holds = hg_pending_from_tags(m->rec, &held);
	if (holds == HG_ENOMEM)
		goto out;	/* (the unit reports it) */
	if (holds) {
		rc = pending_step(m, &held, seat, body.data ? body.data : "", before, told, d);
		hg_pending_free(&held);
		goto out;
	}
	const char *to_move = cls->to_move(m->st);
	if (!may_act(m, seat)) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, pos, "master.turn",
					  "it is not %s's turn", seat);
		if (to_move)
			hg_diag_note(dg, "%s is to move", to_move);
		goto out;
	}
	int opened = pending_open(m, seat, body.data ? body.data : "", told, d);
	if (opened != 0) {
		rc = opened > 0 ? 0 : -1;
		goto out;
	}
	rc = play_whole(m, seat, &t, d);
	if (rc == 0)
		rc = hg_master_fill_chance(m, d);
	if (rc == 0) {
		const char *result = cls->result(m->st);
		if (result)
			set_result(m, result);
		hg_buf answer;
		hg_buf_init(&answer);
		tell(m, seat, before, &answer);
		rc = write_out(m, 0, &answer, told, d);
		hg_buf_free(&answer);
	}
out:
	hg_action_text_free(&t);
	hg_buf_free(&body);
	return rc;
}

int hg_master_move(hg_master *m, const char *seat_name, const char *text, long after,
		   hg_buf *told, hg_diags *d)
{
	hg_alloc_unit u;
	size_t ndiags = d->n;
	hg_alloc_unit_begin(&u);
	int rc = master_move(m, seat_name, text, after, told, d);
	return master_unit_end(&u, m, d, ndiags, rc);
}

/* ------------------------------------------------------------ entropy */

/* Sets the position up again from the tags, with the secret: after the
 * entropy changed, the effective seed did. */
static int setup_again(hg_master *m, hg_diags *d)
{
	const hg_game_class *cls;
	const hg_gdata *data;
	if (hg_session_prepare(m->session, m->rec, &cls, &data, d) != 0 ||
	    hg_record_try_set_tag(m->rec, "SeedReveal", m->secret) != 0)
		return -1;
	hg_state *st = hg_engine_setup(cls, data, m->rec, d);
	hg_record_remove_tag(m->rec, "SeedReveal");
	if (!st)
		return -1;
	cls->free_state(m->st);
	m->st = st;
	return 0;
}

static int master_entropy(hg_master *m, const char *seat_name, const char *word, hg_buf *told,
			  hg_diags *d)
{
	hg_pos pos = no_pos(m->path);
	if (closed(m, d))
		return -1;
	if (m->nactions > 0) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, pos, "master.entropy",
					  "the game has begun: entropy is taken only before its first action");
		hg_diag_note(dg, "the record holds %zu actions", m->nactions);
		return -1;
	}
	char name[32];
	if (seat_name) {
		int seat = seat_of(m, seat_name);
		if (seat < 0) {
			hg_diag_add(d, HG_ERROR, pos, "master.seat", "'%s' holds no seat of this game",
				    seat_name);
			return -1;
		}
		snprintf(name, sizeof name, "Entropy%d", seat + 1);
		if (hg_record_tag(m->rec, name)) {
			hg_diag_add(d, HG_ERROR, pos, "master.entropy",
				    "%s gave its word already: a word is given once",
				    m->cls->seat_name(m->st, (unsigned)seat));
			return -1;
		}
		if (hg_record_try_set_tag(m->rec, name, word ? word : "") != 0)
			return -1;
	}
	/* Who has not given a word yet. */
	hg_buf waiting;
	hg_buf_init(&waiting);
	size_t players = hg_record_nplayers(m->rec);
	for (size_t i = 0; i < players; i++) {
		snprintf(name, sizeof name, "Entropy%zu", i + 1);
		const char *seat = m->cls->seat_name(m->st, (unsigned)i);
		if (!hg_record_tag(m->rec, name) && seat)
			hg_buf_printf(&waiting, "%s%s", waiting.len ? ", " : "", seat);
	}
	int rc = 0;
	if (!waiting.len || !seat_name) {
		rc = setup_again(m, d);
		if (rc == 0)
			rc = hg_master_fill_chance(m, d);
	}
	if (rc == 0) {
		hg_buf answer;
		hg_buf_init(&answer);
		if (waiting.len && seat_name)
			hg_buf_printf(&answer, "waiting for the entropy of: %s\nactions: 0\n",
				      waiting.data);
		else
			tell(m, "", 0, &answer);
		rc = write_out(m, 0, &answer, told, d);
		hg_buf_free(&answer);
	}
	hg_buf_free(&waiting);
	return rc;
}

int hg_master_entropy(hg_master *m, const char *seat_name, const char *word, hg_buf *told,
		      hg_diags *d)
{
	hg_alloc_unit u;
	size_t ndiags = d->n;
	hg_alloc_unit_begin(&u);
	int rc = master_entropy(m, seat_name, word, told, d);
	return master_unit_end(&u, m, d, ndiags, rc);
}

/* ------------------------------------------------------------ the end */

static int master_reveal(hg_master *m, hg_diags *d)
{
	if (hg_record_tag(m->rec, "SeedReveal")) {
		hg_diag_add(d, HG_ERROR, hg_record_tag(m->rec, "SeedReveal")->pos, "master.over",
			    "the seed is revealed already");
		return -1;
	}
	if (hg_record_try_set_tag(m->rec, "SeedReveal", m->secret) != 0)
		return -1;
	return commit(m, NULL, 0, NULL, NULL, d);
}

int hg_master_reveal(hg_master *m, hg_diags *d)
{
	hg_alloc_unit u;
	size_t ndiags = d->n;
	hg_alloc_unit_begin(&u);
	int rc = master_reveal(m, d);
	return master_unit_end(&u, m, d, ndiags, rc);
}

static int master_end(hg_master *m, int kind, const char *result, const char *seat_name,
		      const char *reason, hg_diags *d)
{
	const hg_game_class *cls = m->cls;
	hg_pos pos = no_pos(m->path);
	if (closed(m, d))
		return -1;
	hg_buf want;
	hg_buf_init(&want);
	if (kind == HG_END_FORFEIT) {
		int seat = seat_of(m, seat_name);
		if (seat < 0) {
			hg_diag_add(d, HG_ERROR, pos, "master.seat", "'%s' holds no seat of this game",
				    seat_name ? seat_name : "");
			hg_buf_free(&want);
			return -1;
		}
		hg_record_try_set_tag(m->rec, "Forfeit", cls->seat_name(m->st, (unsigned)seat));
		hg_resign_result(cls, m->st, (unsigned)seat, &want);	/* (failed: below) */
		result = want.data ? want.data : "";
	}
	drop_pending(m);
	hg_record_try_set_tag(m->rec, "Termination", hg_termination_word(kind));
	if (reason)
		hg_record_try_set_tag(m->rec, "TerminationReason", reason);
	set_result(m, result);
	hg_buf_free(&want);
	if (hg_alloc_lost())
		return -1;
	/* The ending must be one check accepts: checked before it is written. */
	if (hg_record_try_set_tag(m->rec, "SeedReveal", m->secret) != 0)
		return -1;
	hg_diags mine;
	hg_diags_init(&mine);
	int rc = hg_check_game(m->session, m->rec, &mine, NULL, NULL, NULL, NULL);
	hg_record_remove_tag(m->rec, "SeedReveal");
	hg_diags_move(d, &mine);
	hg_diags_free(&mine);
	if (rc != 0)
		return -1;
	return commit(m, NULL, 1, NULL, NULL, d);
}

int hg_master_end(hg_master *m, int kind, const char *result, const char *seat_name,
		  const char *reason, hg_diags *d)
{
	hg_alloc_unit u;
	size_t ndiags = d->n;
	hg_alloc_unit_begin(&u);
	int rc = master_end(m, kind, result, seat_name, reason, d);
	return master_unit_end(&u, m, d, ndiags, rc);
}
