/* master-impl.h - what the game master's files share (internal): the
 * open game (master.c), its beginning (master-new.c) and the chance herald
 * writes into it from the seed (master-chance.c). */
#ifndef HERALD_MASTER_IMPL_H
#define HERALD_MASTER_IMPL_H

#include "internal.h"

struct hg_master {
	hg_session *session;
	char *path, *key_path;
	int lock_fd;
	char secret[HG_FAIR_HEX_LEN + 1];
	hg_game_record *rec;
	const hg_game_class *cls;
	hg_state *st;		/* the position after the main line, chance seeded */
	size_t nactions;	/* actions on the main line */
	unsigned last_turn;	/* the last move number written on the main line */
	/* herald's own action that other seats answer (a scripted side's
	 * attack), held pending by fill_chance: written with the record */
	hg_pending opened;
	int has_opened;
};

/* A position for a diagnostic or a node that has none in a file. */
static inline hg_pos no_pos(const char *file)
{
	hg_pos p = { file, 0, 0 };
	return p;
}

/* Frees the actions of a legal-action list and empties it. */
void hg_master_free_list(const hg_game_class *cls, hg_action_list *l);

/* Applies `seat: body` to the position and appends it to the main line
 * (hg_master_number_turn() writes the move number first).  0, or -1 after
 * diagnostics, with nothing appended. */
int hg_master_append(hg_master *m, const char *seat, const char *body, hg_diags *d);

/* The move number, written before an action when the turn changed. */
void hg_master_number_turn(hg_master *m);

/* Is the next action herald's own (wholly chance)?  1 with it in seat and
 * body, else 0. */
int hg_master_next_chance(hg_master *m, hg_buf *seat, hg_buf *body);

/* Herald's own actions, appended while there are any.  0, or -1 after
 * diagnostics. */
int hg_master_fill_chance(hg_master *m, hg_diags *d);

/* The seat's action with its chance filled in from the seed: 0 with its
 * canonical body in out, 1 when none matches. */
int hg_master_complete_chance(hg_master *m, const char *seat, const char *text, hg_buf *out);

#endif
