/* replay.c - replaying a record through its game's engine: the main line,
 * every variation from the position where it branches, and the declared
 * result against the replayed one. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "internal.h"

typedef struct replay {
	const hg_game_class *cls;
	hg_diags *d;
	const hg_replay_hooks *hooks;
	size_t actions;
	int illegal;
	int keep;		/* keep the main line's position at an illegal action */
} replay;

/* Does a variation follow node i before the next action?
 * Only then is the position before the action worth keeping. */
static int variation_follows(const hg_line *line, size_t i)
{
	for (size_t k = i + 1; k < line->n; k++) {
		hg_node_kind kind = line->nodes[k].kind;
		if (kind == HG_NODE_VARIATION)
			return 1;
		if (kind == HG_NODE_ACTION)
			return 0;
	}
	return 0;
}

static void replay_line(replay *r, const hg_line *line, hg_state **stp, unsigned depth);

static void replay_variation(replay *r, const hg_node *n, const hg_state *branch,
			     unsigned depth)
{
	if (!branch) {
		hg_diag_add(r->d, HG_ERROR, n->pos, "hgn.variation-without-action",
			    "a variation must follow the action it replaces");
		r->illegal = 1;
		return;
	}
	hg_state *copy = r->cls->clone(branch);
	replay_line(r, n->variation, &copy, depth + 1);
	r->cls->free_state(copy);
}

/* Replays `line` on *stp (which it advances).  After an illegal action the
 * rest of the line is not replayed, but variations right after it still are,
 * from the position before it (kept only when a variation follows).  The
 * state an illegal action spoiled is left to be freed, except on the main
 * line when r->keep asks for the position before it. */
static void replay_line(replay *r, const hg_line *line, hg_state **stp, unsigned depth)
{
	const hg_game_class *cls = r->cls;
	hg_state *st = *stp;
	hg_state *before = NULL;	/* position before the last action */
	int stopped = 0;
	for (size_t i = 0; i < line->n; i++) {
		const hg_node *n = &line->nodes[i];
		switch (n->kind) {
		case HG_NODE_COMMENT:
		case HG_NODE_NAG:
			break;
		case HG_NODE_VARIATION:
			/* Once the line has stopped and moved on, a variation's branch
			 * point was never reached: its own error is already reported. */
			if (stopped != 2)
				replay_variation(r, n, before, depth);
			break;
		case HG_NODE_MOVENUM:
			if (stopped)
				break;
			if (n->number != cls->turn(st)) {
				hg_diag *dg = hg_diag_add(r->d, HG_ERROR, n->pos, "hgn.move-number",
							  "move number %u does not match the replay, which is at %u",
							  n->number, cls->turn(st));
				hg_diag_note(dg, "a move number must show the game's turn count where it is written");
				r->illegal = 1;
			}
			break;
		case HG_NODE_ACTION: {
			if (stopped) {
				stopped = 2;	/* variations from here on have no branch point */
				break;
			}
			if (before) {
				cls->free_state(before);
				before = NULL;
			}
			if (cls->result(st)) {
				hg_diag *dg = hg_diag_add(r->d, HG_ERROR, n->pos, "hgn.after-end",
							  "action after the end of the game");
				hg_diag_note(dg, "the game ended with the result '%s'", cls->result(st));
				r->illegal = 1;
				stopped = 2;
				break;
			}
			if (variation_follows(line, i))
				before = cls->clone(st);
			hg_action *a = cls->parse(st, &n->action, r->d);
			if (!a) {
				r->illegal = 1;
				stopped = 1;
				break;
			}
			int rc;
			if (depth == 0 && r->keep) {
				rc = hg_apply_keep(cls, &st, a, r->d);
				*stp = st;
			} else {
				rc = cls->apply(st, a, r->d);
			}
			cls->free_action(a);
			if (rc != 0) {
				r->illegal = 1;
				stopped = 1;
				break;
			}
			r->actions++;
			if (r->actions > HG_MAX_ACTIONS) {
				hg_diag_add(r->d, HG_ERROR, n->pos, "hgn.too-many-actions",
					    "more than %d actions in one game", HG_MAX_ACTIONS);
				r->illegal = 1;
				stopped = 2;
				break;
			}
			if (r->hooks && r->hooks->after_action)
				r->hooks->after_action(r->hooks->ctx, cls, n, st, depth);
			break;
		}
		}
	}
	if (before)
		cls->free_state(before);
	if (stopped)
		r->illegal = 1;
}

int hg_apply_keep(const hg_game_class *cls, hg_state **st, const hg_action *a,
		  hg_diags *d)
{
	hg_state *work = cls->clone(*st);
	if (cls->apply(work, a, d) != 0) {
		cls->free_state(work);
		return -1;
	}
	cls->free_state(*st);
	*st = work;
	return 0;
}

/* Results compare like names, with runs of white space folded. */
static char *normalise_result(const char *s)
{
	hg_buf b;
	hg_buf_init(&b);
	int space = 0;
	for (; *s; s++) {
		if (*s == ' ' || *s == '\t' || *s == '\n') {
			space = b.len > 0;
			continue;
		}
		if (space)
			hg_buf_putc(&b, ' ');
		space = 0;
		hg_buf_putc(&b, *s);
	}
	char *raw = hg_buf_steal(&b);
	char *folded = hg_name_fold(raw);
	free(raw);
	return folded;
}

static int check_result(const hg_game_class *cls, const hg_game_record *rec,
			const hg_state *st, hg_diags *d)
{
	const hg_tag *tag = hg_record_tag(rec, "Result");
	const char *declared = tag ? tag->value : rec->result;
	if (!declared || strcmp(declared, "*") == 0)
		return 1;
	hg_pos pos = tag ? tag->pos : rec->result_pos;
	const char *actual = cls->result(st);
	if (!actual) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, pos, "hgn.result-unfinished",
					  "the record declares the result '%s' but the game is not over",
					  declared);
		const char *who = cls->to_move ? cls->to_move(st) : NULL;
		if (who)
			hg_diag_note(dg, "%s is to move", who);
		hg_diag_note(dg, "an unfinished game is declared with the Result \"*\"");
		return 0;
	}
	if (strcmp(declared, actual) == 0)
		return 1;	/* as written: the same once normalised too */
	char *a = normalise_result(declared), *b = normalise_result(actual);
	int same = strcmp(a, b) == 0;
	free(a);
	free(b);
	if (!same) {
		hg_diag_add(d, HG_ERROR, pos, "hgn.result-wrong",
			    "the record declares the result '%s' but the replay gives '%s'",
			    declared, actual);
		return 0;
	}
	return 1;
}

int hg_check_game(hg_session *s, const hg_game_record *rec, hg_diags *d,
		  const hg_replay_hooks *hooks, hg_check_result *res,
		  hg_state **final, const hg_game_class **cls_out)
{
	hg_check_result local;
	if (!res)
		res = &local;
	memset(res, 0, sizeof *res);
	res->syntax_ok = 1;
	if (final)
		*final = NULL;

	const hg_game_class *cls;
	const hg_gdata *data;
	if (hg_session_prepare(s, rec, &cls, &data, d) != 0)
		return -1;
	if (cls_out)
		*cls_out = cls;
	/* A committed seed that its reveal does not match makes every card
	 * and die meaningless: nothing is replayed. */
	if (hg_fair_check(rec, d) != 0)
		return -1;
	hg_state *st = cls->setup(data, rec, d);
	if (!st)
		return -1;

	replay r = { cls, d, hooks, 0, 0, final != NULL };
	replay_line(&r, &rec->moves, &st, 0);
	res->actions = r.actions;
	res->legal = !r.illegal;
	/* The declared result means something only for a line replayed to its end. */
	res->result_ok = r.illegal ? 0 : check_result(cls, rec, st, d);
	if (final)
		*final = st;
	else
		cls->free_state(st);
	return res->legal && res->result_ok ? 0 : -1;
}
