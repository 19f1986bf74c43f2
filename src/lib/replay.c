/* replay.c - replaying a record through its game's engine: the main line,
 * every variation from the position where it branches, and the declared
 * result against the replayed one. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "engine-call.h"
#include "internal.h"

typedef struct replay {
	const hg_game_class *cls;
	hg_diags *d;
	const hg_replay_hooks *hooks;
	size_t actions;
	int illegal;
	int keep;		/* keep the main line's position at an illegal action */
	int resigned;		/* the main line's resigning seat, or -1 */
	hg_pos resign_pos;
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

/* hg_check_game is a unit of work (util.c).  The engine's callbacks go
 * through engine-call.h (which pauses those it does not report from); the
 * caller's hooks allocate as they always have (aborting on failure),
 * paused in it. */
#define PAUSED(call) HG_PAUSED(call)

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
	hg_state *copy = hg_engine_clone(r->cls, branch);
	if (!copy)
		return;		/* out of memory: the unit of work says so */
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
	const hg_node *resign = NULL;	/* the line's resignation */
	for (size_t i = 0; i < line->n && !hg_alloc_lost(); i++) {
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
			if (resign) {
				hg_diag *dg = hg_diag_add(r->d, HG_ERROR, n->pos, "hgn.after-end",
							  "action after the end of the game");
				hg_diag_note(dg, "%s resigned at %u:%u", resign->action.seat,
					     resign->pos.line, resign->pos.col);
				r->illegal = 1;
				stopped = 2;
				break;
			}
			if (cls->result(st)) {
				hg_diag *dg = hg_diag_add(r->d, HG_ERROR, n->pos, "hgn.after-end",
							  "action after the end of the game");
				hg_diag_note(dg, "the game ended with the result '%s'", cls->result(st));
				r->illegal = 1;
				stopped = 2;
				break;
			}
			if (hg_action_is_resign(&n->action)) {
				int seat = hg_seat_index(cls, st, n->action.seat);
				if (seat < 0) {
					hg_diag *dg = hg_diag_add(r->d, HG_ERROR, n->action.seat_pos,
								  "hgn.resign",
								  "'%s' holds no seat of this game: only a player's seat can resign",
								  n->action.seat);
					hg_buf seats;
					hg_buf_init(&seats);
					hg_seats_list(cls, st, &seats);
					if (seats.len)
						hg_diag_note(dg, "the seats players hold: %s", seats.data);
					else
						hg_diag_note(dg, "the seats players hold: none");
					hg_buf_free(&seats);
					r->illegal = 1;
					stopped = 1;
					break;
				}
				resign = n;
				if (depth == 0) {
					r->resigned = seat;
					r->resign_pos = n->pos;
				}
				r->actions++;
				break;
			}
			if (variation_follows(line, i))
				before = hg_engine_clone(cls, st);
			hg_action *a = hg_engine_parse(cls, st, &n->action, r->d);
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
				rc = hg_engine_apply(cls, st, a, r->d);
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
				PAUSED(r->hooks->after_action(r->hooks->ctx, cls, n, st, depth));
			break;
		}
		}
	}
	if (before)
		cls->free_state(before);
	if (stopped)
		r->illegal = 1;
}

const char *hg_game_id(const hg_game_class *cls)
{
	return cls->id;
}

const char *hg_game_title(const hg_game_class *cls)
{
	return cls->title;
}

void hg_state_free(const hg_game_class *cls, hg_state *st)
{
	if (st)
		cls->free_state(st);
}

static int apply_keep(const hg_game_class *cls, hg_state **st, const hg_action *a,
		      hg_diags *d)
{
	hg_state *work = hg_engine_clone(cls, *st);
	if (!work)
		return HG_ENOMEM;
	int rc = hg_engine_apply(cls, work, a, d);
	if (rc != 0) {
		cls->free_state(work);
		return rc == HG_ENOMEM ? HG_ENOMEM : -1;
	}
	cls->free_state(*st);
	*st = work;
	return 0;
}

/* A unit of work of its own: HG_ENOMEM (*st untouched, hg.out-of-memory
 * in place of what the call diagnosed) wherever it is called. */
int hg_apply_keep(const hg_game_class *cls, hg_state **st, const hg_action *a,
		  hg_diags *d)
{
	hg_alloc_unit u;
	size_t n0 = d->n;
	hg_alloc_unit_begin(&u);
	int rc = apply_keep(cls, st, a, d);
	if (hg_alloc_unit_end(&u, d, n0, (hg_pos){ NULL, 0, 0 }) == HG_ENOMEM)
		rc = HG_ENOMEM;
	return rc;
}

hg_state *hg_state_setup(const hg_game_class *cls, const hg_gdata *data,
			 const hg_game_record *rec, hg_diags *d)
{
	hg_alloc_unit u;
	size_t n0 = d->n;
	hg_alloc_unit_begin(&u);
	hg_state *st = hg_engine_setup(cls, data, rec, d);
	if (hg_alloc_unit_end(&u, d, n0, rec->pos) == 0)
		return st;
	if (st)
		cls->free_state(st);
	return NULL;
}

hg_action *hg_action_parse(const hg_game_class *cls, const hg_state *st,
			   const hg_action_text *t, hg_diags *d)
{
	hg_alloc_unit u;
	size_t n0 = d->n;
	hg_alloc_unit_begin(&u);
	hg_action *a = hg_engine_parse(cls, st, t, d);
	if (hg_alloc_unit_end(&u, d, n0, t->pos) == 0)
		return a;
	if (a)
		cls->free_action(a);
	return NULL;
}

int hg_legal_actions(const hg_game_class *cls, const hg_state *st, hg_action_list *out)
{
	hg_alloc_unit u;
	size_t n0 = out->n;
	hg_alloc_unit_begin(&u);
	hg_engine_legal(cls, st, out);
	if (hg_alloc_unit_end(&u, NULL, 0, (hg_pos){ NULL, 0, 0 }) == 0)
		return 0;
	/* (a failure outside the engine's own accounting: a paused legal's
	 * buffer or diagnostic) */
	for (size_t i = n0; i < out->n; i++)
		cls->free_action(out->v[i]);
	out->n = n0;
	return HG_ENOMEM;
}

int hg_render_position(const hg_game_class *cls, const hg_state *st, hg_buf *out)
{
	hg_alloc_unit u;
	size_t len0 = out->len;
	hg_alloc_unit_begin(&u);
	hg_engine_render(cls, st, out);
	return hg_write_unit_end(&u, out, len0);
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
	if (!raw)
		return NULL;	/* (the unit has failed) */
	char *folded = hg_name_fold(raw);
	free(raw);
	return folded;
}

/* Do two results say the same once normalised? */
static int same_result(const char *declared, const char *actual)
{
	if (strcmp(declared, actual) == 0)
		return 1;	/* as written: the same once normalised too */
	char *a = normalise_result(declared), *b = normalise_result(actual);
	int same = a && b && strcmp(a, b) == 0;
	free(a);
	free(b);
	return same;
}

/* The result a resignation or forfeit gives, against the declared one. */
static int check_resign_result(const hg_game_class *cls, const hg_state *st, unsigned seat,
			       const char *declared, hg_pos pos, const char *why, hg_diags *d)
{
	hg_buf want;
	hg_buf_init(&want);
	if (hg_resign_result(cls, st, seat, &want) != 0) {
		hg_buf_free(&want);
		return 0;	/* (the unit of work reports it) */
	}
	int ok = strcmp(declared, "*") != 0 && same_result(declared, want.data ? want.data : "");
	if (!ok) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, pos, "hgn.result-wrong",
					  "the record declares the result '%s' but %s gives '%s'",
					  declared, why, want.data ? want.data : "");
		hg_diag_note(dg, "see herald-notation(5), ENDINGS");
	}
	hg_buf_free(&want);
	return ok;
}

/* An agreed result names two or more seats, each once: they share it. */
static int check_agreement(const hg_game_class *cls, const hg_state *st, const char *declared,
			   hg_pos pos, hg_diags *d)
{
	char *copy = hg_try_strdup(declared);
	if (!copy)
		return 0;	/* (the unit has failed: nothing is said) */
	unsigned long seen = 0;
	int n = 0, ok = 1;
	for (char *item = strtok(copy, ","); item && ok; item = strtok(NULL, ",")) {
		while (*item == ' ')
			item++;
		size_t len = strlen(item);
		while (len && item[len - 1] == ' ')
			item[--len] = '\0';
		int seat = hg_seat_index(cls, st, item);
		if (seat < 0 || seat >= (int)(8 * sizeof seen) || (seen >> seat & 1))
			ok = 0;
		else
			seen |= 1UL << seat;
		n++;
	}
	free(copy);
	if (!ok || n < 2) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, pos, "hgn.termination",
					  "a result by agreement names the seats that share it, each once: '%s' does not",
					  declared);
		hg_buf seats;
		hg_buf_init(&seats);
		hg_seats_list(cls, st, &seats);
		if (seats.len)
			hg_diag_note(dg, "the seats: %s; two or more of them, joined by \", \"",
				     seats.data);
		else
			hg_diag_note(dg, "the seats: none; two or more of them, joined by \", \"");
		hg_buf_free(&seats);
		return 0;
	}
	return 1;
}

/* The organiser's endings: the game is not over by the rules, and the
 * declared result stands with its reason. */
static int check_declared_ending(const hg_game_class *cls, const hg_game_record *rec,
				 const hg_state *st, int kind, const hg_tag *term,
				 const char *declared, hg_pos pos, hg_diags *d)
{
	if (cls->result(st)) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, term->pos, "hgn.termination",
					  "Termination says '%s' but the game ended by its rules with '%s'",
					  term->value, cls->result(st));
		hg_diag_note(dg, "a game that ends by its rules has the Termination \"normal\"");
		return 0;
	}
	if (strcmp(declared, "*") == 0) {
		hg_diag_add(d, HG_ERROR, pos, "hgn.termination",
			    "Termination says '%s': the record must declare the result it gives",
			    term->value);
		return 0;
	}
	if (kind == HG_END_FORFEIT) {
		const hg_tag *who = hg_record_tag(rec, "Forfeit");
		int seat = who ? hg_seat_index(cls, st, who->value) : -1;
		if (seat < 0) {
			hg_diag *dg = hg_diag_add(d, HG_ERROR, who ? who->pos : term->pos, "hgn.termination",
						  who ? "Forfeit names '%s', who holds no seat of this game"
						      : N_("a forfeit needs the Forfeit tag naming the seat that forfeits%s"),
						  who ? who->value : "");
			hg_diag_note(dg, "see herald-notation(5), ENDINGS");
			return 0;
		}
		hg_buf why;
		hg_buf_init(&why);
		hg_buf_printf(&why, "%s's forfeit", cls->seat_name(st, (unsigned)seat));
		int ok = check_resign_result(cls, st, (unsigned)seat, declared, pos, why.data, d);
		hg_buf_free(&why);
		return ok;
	}
	if (kind == HG_END_ADJUDICATION && !hg_record_tag(rec, "TerminationReason")) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, term->pos, "hgn.termination",
					  "an adjudication needs its reason in the TerminationReason tag");
		hg_diag_note(dg, "see herald-notation(5), ENDINGS");
		return 0;
	}
	if (kind == HG_END_AGREEMENT)
		return check_agreement(cls, st, declared, pos, d);
	return 1;
}

static int check_result(const hg_game_class *cls, const hg_game_record *rec,
			const hg_state *st, const replay *r, hg_diags *d)
{
	const hg_tag *tag = hg_record_tag(rec, "Result");
	const char *declared = tag ? tag->value : rec->result;
	hg_pos pos = tag ? tag->pos : rec->result_pos;
	const hg_tag *term = hg_record_tag(rec, "Termination");
	int kind = hg_termination_kind(term ? term->value : NULL);
	if (kind < 0) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, term->pos, "hgn.termination",
					  "unknown Termination '%s'", term->value);
		hg_diag_note(dg, "Termination is normal, resignation, agreement, forfeit or adjudication");
		return 0;
	}
	if (r->resigned >= 0 || kind == HG_END_RESIGNATION) {
		if (r->resigned < 0) {
			hg_diag_add(d, HG_ERROR, term->pos, "hgn.termination",
				    "Termination says resignation but no seat resigns");
			return 0;
		}
		if (kind != HG_END_NORMAL && kind != HG_END_RESIGNATION) {
			hg_diag *dg = hg_diag_add(d, HG_ERROR, term->pos, "hgn.termination",
						  "the game ends by a resignation, not by %s", term->value);
			hg_diag_note(dg, "%u:%u: the resignation", r->resign_pos.line,
				     r->resign_pos.col);
			return 0;
		}
		return check_resign_result(cls, st, (unsigned)r->resigned,
					   declared ? declared : "*", pos,
					   _("the resignation"), d);
	}
	if (kind != HG_END_NORMAL)
		return check_declared_ending(cls, rec, st, kind, term, declared ? declared : "*",
					     pos, d);
	if (!declared || strcmp(declared, "*") == 0)
		return 1;
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
	if (!same_result(declared, actual)) {
		hg_diag_add(d, HG_ERROR, pos, "hgn.result-wrong",
			    "the record declares the result '%s' but the replay gives '%s'",
			    declared, actual);
		return 0;
	}
	return 1;
}

static int check_game(hg_session *s, const hg_game_record *rec, hg_diags *d,
		      const hg_replay_hooks *hooks, hg_check_result *res,
		      hg_state **final, const hg_game_class **cls_out);

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
	const hg_game_class *cls = NULL;
	hg_alloc_unit u;
	size_t ndiags = d->n;
	hg_alloc_unit_begin(&u);
	int rc = check_game(s, rec, d, hooks, res, final, &cls);
	if (cls_out && cls)
		*cls_out = cls;
	if (hg_alloc_unit_end(&u, d, ndiags, rec->pos) != HG_ENOMEM)
		return rc;
	if (final && *final) {
		cls->free_state(*final);
		*final = NULL;
	}
	res->legal = res->result_ok = 0;
	return HG_ENOMEM;
}

static int check_game(hg_session *s, const hg_game_record *rec, hg_diags *d,
		      const hg_replay_hooks *hooks, hg_check_result *res,
		      hg_state **final, const hg_game_class **cls_out)
{
	const hg_game_class *cls;
	const hg_gdata *data;
	int rc;
	/* the games' data, and the session's cache of it: a unit of its own */
	rc = hg_session_prepare(s, rec, &cls, &data, d);
	if (rc != 0)
		return -1;
	*cls_out = cls;
	/* A committed seed that its reveal does not match makes every card
	 * and die meaningless: nothing is replayed. */
	if (hg_fair_check(rec, d) != 0)
		return -1;
	hg_state *st = hg_engine_setup(cls, data, rec, d);
	if (!st)
		return -1;

	replay r = { cls, d, hooks, 0, 0, final != NULL, -1, { NULL, 0, 0 } };
	replay_line(&r, &rec->moves, &st, 0);
	res->actions = r.actions;
	res->legal = !r.illegal;
	/* The declared result means something only for a line replayed to its end. */
	res->result_ok = r.illegal ? 0 : check_result(cls, rec, st, &r, d);
	if (final)
		*final = st;
	else
		cls->free_state(st);
	return res->legal && res->result_ok ? 0 : -1;
}
