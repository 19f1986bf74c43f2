/* ending.c - endings that are not the rules' ending (herald-notation(5),
 * ENDINGS): a seat's resignation (the action `SEAT: resign`, which every
 * game takes), and the organiser's endings declared by the Termination tag
 * in PGN's style: an agreed result, a forfeit, an adjudication. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "engine-call.h"
#include "internal.h"

static const char *const termination_words[] = {
	[HG_END_NORMAL] = "normal",
	[HG_END_RESIGNATION] = "resignation",
	[HG_END_AGREEMENT] = "agreement",
	[HG_END_FORFEIT] = "forfeit",
	[HG_END_ADJUDICATION] = "adjudication",
};

int hg_termination_kind(const char *value)
{
	if (!value)
		return HG_END_NORMAL;
	for (size_t i = 0; i < HG_ARRAY_LEN(termination_words); i++)
		if (hg_name_eq(value, termination_words[i]))
			return (int)i;
	return -1;
}

const char *hg_termination_word(int kind)
{
	return kind >= 0 && (size_t)kind < HG_ARRAY_LEN(termination_words) ?
	       termination_words[kind] : NULL;
}

int hg_action_is_resign(const hg_action_text *t)
{
	return t->ntoks == 1 && hg_name_eq(t->text, "resign");
}

int hg_seat_index(const hg_game_class *cls, const hg_state *st, const char *name)
{
	return cls->seat_find && name ? cls->seat_find(st, name) : -1;
}

void hg_seats_list(const hg_game_class *cls, const hg_state *st, hg_buf *out)
{
	for (unsigned i = 0; cls->seat_name && cls->seat_name(st, i); i++)
		hg_buf_printf(out, "%s%s", i ? ", " : "", cls->seat_name(st, i));
}

int hg_record_ending(const hg_game_record *rec, hg_buf *why)
{
	const hg_line *l = &rec->moves;
	for (size_t i = 0; i < l->n; i++)
		if (l->nodes[i].kind == HG_NODE_ACTION && hg_action_is_resign(&l->nodes[i].action)) {
			hg_buf_printf(why, "%s resigned", l->nodes[i].action.seat);
			return 1;
		}
	const char *term = hg_record_tag_value(rec, "Termination");
	int kind = hg_termination_kind(term);
	if (kind <= HG_END_RESIGNATION)
		return 0;
	hg_buf_puts(why, hg_termination_word(kind));
	const char *forfeit = hg_record_tag_value(rec, "Forfeit");
	if (kind == HG_END_FORFEIT && forfeit)
		hg_buf_printf(why, " of %s", forfeit);
	const char *reason = hg_record_tag_value(rec, "TerminationReason");
	if (reason)
		hg_buf_printf(why, ": %s", reason);
	return 1;
}

int hg_resign_result(const hg_game_class *cls, const hg_state *st, unsigned seat, hg_buf *out)
{
	if (cls->resign_result)
		return hg_engine_resign_result(cls, st, seat, out);
	/* The seats that did not resign share the game, in seat order. */
	size_t n = 0;
	for (unsigned i = 0; cls->seat_name(st, i); i++)
		if (i != seat)
			hg_buf_printf(out, "%s%s", n++ ? ", " : "", cls->seat_name(st, i));
	return hg_buf_failed(out) ? HG_ENOMEM : 0;
}
