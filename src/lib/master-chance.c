/* master-chance.c - the chance herald writes into a master record: the
 * actions that are wholly chance (a deal, a draw), appended while there
 * are any, and a seat's action completed with the chance the seed decides
 * (herald-move(1)). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "engine-call.h"
#include "master-impl.h"

void hg_master_free_list(const hg_game_class *cls, hg_action_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		cls->free_action(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof *l);
}

/* The engine's callbacks run as the core runs them (engine-call.h): in the
 * unit those the engine reports allocation failure from, paused the
 * others, which abort.  When one reports, the caller stops: the unit has
 * failed, and nothing is written. */

/* Applies `seat: body` to the position and appends it to the main line
 * (hg_master_number_turn() writes the move number first).  0, or -1 after
 * diagnostics, with nothing appended. */
int hg_master_append(hg_master *m, const char *seat, const char *body, hg_diags *d)
{
	hg_game_record *rec = m->rec;
	const hg_game_class *cls = m->cls;
	hg_pos pos = no_pos(rec->file);
	hg_action_text t;
	memset(&t, 0, sizeof t);
	if (hg_action_text_set(&t, seat, body, pos, d) != 0) {
		hg_action_text_free(&t);
		return -1;
	}
	/* The node first: once the position has moved on, nothing fails. */
	hg_node *n = hg_line_try_push(&rec->moves, HG_NODE_ACTION, pos);
	hg_action *a = NULL;
	if (n)
		a = hg_engine_parse(cls, m->st, &t, d);
	int rc = -1;
	if (a)
		rc = hg_apply_keep(cls, &m->st, a, d);
	if (a)
		cls->free_action(a);
	if (rc != 0) {
		if (n)
			rec->moves.n--;	/* (the node pushed last) */
		hg_action_text_free(&t);
		return -1;
	}
	n->action = t;
	m->nactions++;
	return 0;
}

/* The move number, written before an action when the turn changed. */
void hg_master_number_turn(hg_master *m)
{
	unsigned turn = m->cls->turn(m->st);
	if (turn != m->last_turn && turn != 0) {
		hg_node *n = hg_line_try_push(&m->rec->moves, HG_NODE_MOVENUM, no_pos(m->rec->file));
		if (!n)
			return;	/* (the unit has failed: nothing is written) */
		n->number = turn;
		m->last_turn = turn;
	}
}

/* Is the next action herald's own: is every legal action wholly chance (a
 * deal, a draw, a move of a side no player holds)?  Then 1, with the first
 * the engine lists in seat and body: the seed decides it, so there is one,
 * save where a seat could add a response, which herald does not offer (see
 * herald-move(1), LIMITS). */
int hg_master_next_chance(hg_master *m, hg_buf *seat, hg_buf *body)
{
	const hg_game_class *cls = m->cls;
	if (cls->result(m->st))
		return 0;
	hg_action_list legal = { 0 };
	hg_engine_legal(cls, m->st, &legal);
	int all_chance = legal.n > 0;
	for (size_t i = 0; i < legal.n && all_chance; i++) {
		hg_buf_clear(seat);
		hg_buf_clear(body);
		size_t split = 1;
		all_chance = hg_engine_format(cls, m->st, legal.v[i], seat, body) == 0 &&
			     hg_engine_chance_split(cls, m->st, seat->data ? seat->data : "",
						    body->data ? body->data : "", &split) == 0 &&
			     split == 0;
	}
	hg_buf_clear(seat);
	hg_buf_clear(body);
	if (all_chance && hg_engine_format(cls, m->st, legal.v[0], seat, body) != 0)
		all_chance = 0;
	hg_master_free_list(cls, &legal);
	return all_chance;
}

/* Herald's own actions, appended while there are any, up to one that
 * other seats answer within (held pending: m->opened).  0, or -1 after
 * diagnostics. */
int hg_master_fill_chance(hg_master *m, hg_diags *d)
{
	hg_buf seat, body;
	hg_buf_init(&seat);
	hg_buf_init(&body);
	int rc = 0;
	for (size_t guard = 0; guard < HG_MAX_ACTIONS && !m->has_opened && !hg_alloc_lost() &&
	     hg_master_next_chance(m, &seat, &body); guard++) {
		/* the seed decides it, but other seats may answer within it */
		if (m->cls->pending_open) {
			hg_pending p;
			memset(&p, 0, sizeof p);
			int held = hg_engine_pending_open(m->cls, m->st, seat.data ? seat.data : "",
							  body.data ? body.data : "", &p, d);
			if (held < 0) {
				rc = -1;
				break;
			}
			if (held > 0) {
				m->opened = p;
				m->has_opened = 1;
				break;
			}
		}
		hg_master_number_turn(m);
		if (hg_master_append(m, seat.data ? seat.data : "", body.data ? body.data : "", d) != 0) {
			rc = -1;
			break;
		}
	}
	hg_buf_free(&seat);
	hg_buf_free(&body);
	return rc;
}

/* Does the player's text match the engine's, a '?' of the player's standing
 * for one or more of the engine's tokens?  (Tokens compare as names do.) */
static int glob_tokens(const hg_atok *p, size_t np, const hg_atok *e, size_t ne)
{
	if (np == 0)
		return ne == 0;
	if (p[0].kind == HG_ATOK_UNKNOWN) {
		for (size_t k = 1; k <= ne; k++)
			if (glob_tokens(p + 1, np - 1, e + k, ne - k))
				return 1;
		return 0;
	}
	return ne > 0 && hg_name_eq(p[0].text, e[0].text) &&
	       glob_tokens(p + 1, np - 1, e + 1, ne - 1);
}

/* The first n bytes of a and the first m of b, compared as names. */
static int prefix_eq(const char *a, size_t n, const char *b, size_t m)
{
	char *x = hg_try_strndup(a, n), *y = hg_try_strndup(b, m);
	int eq = x && y && hg_name_eq(x, y);	/* (else the unit has failed) */
	free(x);
	free(y);
	return eq;
}

/* The seat's action with its chance filled in from the seed.  `text` is
 * the action as the seat wrote it, or in canonical spelling; its decided
 * part is what comes before its chance (chance_split), or all of it when
 * the seat left the chance out.  Among the legal actions of the seat that
 * have chance, the one whose decided part is the seat's (and, of several,
 * the one the seat's text matches where it wrote '?'); its canonical body
 * goes to out.  0: found; 1: none (the caller applies the seat's text as
 * it is, and the engine says why it is illegal, or takes its '?' from the
 * seed). */
int hg_master_complete_chance(hg_master *m, const char *seat, const char *text, hg_buf *out)
{
	const hg_game_class *cls = m->cls;
	if (hg_engine_chance_fill(cls, m->st, seat, text, out) != 0)
		return 1;	/* (the unit has failed: nothing is written) */
	if (out->len)
		return 0;
	size_t split;
	if (!cls->chance_split || hg_engine_chance_split(cls, m->st, seat, text, &split) != 0)
		return 1;
	hg_action_text mine;
	memset(&mine, 0, sizeof mine);
	hg_diags quiet;
	hg_diags_init(&quiet);
	hg_action_text_set(&mine, seat, text, no_pos(m->rec->file), &quiet);
	hg_action_list legal = { 0 };
	hg_engine_legal(cls, m->st, &legal);
	hg_buf s, b;
	hg_buf_init(&s);
	hg_buf_init(&b);
	int found = 1, by_prefix = -1, by_glob = -1;
	for (size_t i = 0; i < legal.n; i++) {
		hg_buf_clear(&s);
		hg_buf_clear(&b);
		if (hg_engine_format(cls, m->st, legal.v[i], &s, &b) != 0)
			break;
		const char *body = b.data ? b.data : "";
		if (!s.data || strcmp(s.data, seat) != 0)
			continue;
		size_t k;
		if (hg_engine_chance_split(cls, m->st, seat, body, &k) != 0)
			break;
		if (k == strlen(body) || !prefix_eq(body, k, text, split))
			continue;
		if (by_prefix < 0)
			by_prefix = (int)i;
		hg_action_text theirs;
		memset(&theirs, 0, sizeof theirs);
		if (by_glob < 0 &&
		    hg_action_text_set(&theirs, seat, body, no_pos(m->rec->file), &quiet) == 0 &&
		    glob_tokens(mine.toks, mine.ntoks, theirs.toks, theirs.ntoks))
			by_glob = (int)i;
		hg_action_text_free(&theirs);
	}
	/* Of several, the one the seat's text matches; when none does (the
	 * seat left the chance out, or wrote an outcome the dice do not give
	 * and not its choice for the outcome they give), the first the engine
	 * lists. */
	int pick = by_glob >= 0 ? by_glob : by_prefix;
	if (pick >= 0 && !hg_alloc_lost()) {
		hg_buf_clear(&s);
		found = hg_engine_format(cls, m->st, legal.v[pick], &s, out) != 0;
	}
	hg_master_free_list(cls, &legal);
	hg_buf_free(&s);
	hg_buf_free(&b);
	hg_action_text_free(&mine);
	hg_diags_free(&quiet);
	return found;
}
