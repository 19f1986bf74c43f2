/* notation-write.c - Encrucijada's actions written back canonically
 * (grammar/encrucijada.ebnf): English keywords, card ids, seats P1 ... P6;
 * what notation.c reads. */
#include "config.h"

#include "enc.h"

void enc_format_ref(const enc_item *ref, hg_buf *b)
{
	if (ref->pos <= 1)
		hg_buf_printf(b, "%c", 'a' + ref->stack);
	else
		hg_buf_printf(b, "%c.%d", 'a' + ref->stack, ref->pos);
}

void enc_format_item(const hg_state *s, const enc_item *it, hg_buf *b)
{
	switch (it->kind) {
	case ENC_ITEM_CARD:
		hg_buf_puts(b, enc_card_id(s, it->card));
		break;
	case ENC_ITEM_REF:
		enc_format_ref(it, b);
		break;
	case ENC_ITEM_NUMBER:
		hg_buf_printf(b, "%d", it->number);
		break;
	case ENC_ITEM_RESOURCE:
		hg_buf_puts(b, s->data->pool.res[it->number].id);
		break;
	case ENC_ITEM_UNKNOWN:
		hg_buf_putc(b, '?');
		break;
	}
}

static void opt_card(const hg_state *s, int card, hg_buf *b)
{
	if (card >= 0)
		hg_buf_printf(b, " %s", enc_card_id(s, card));
	else if (card == -2)
		hg_buf_puts(b, " ?");
}

void enc_format(const hg_state *s, const hg_action *a, hg_buf *seat, hg_buf *body)
{
	hg_buf_puts(seat, enc_seat_name(a->seat));
	switch (a->kind) {
	case ENC_A_SETUP:
		hg_buf_printf(body, "setup %d", a->pile + 1);
		for (int i = 0; i < a->nitems; i++) {
			hg_buf_putc(body, ' ');
			enc_format_item(s, &a->items[i], body);
		}
		break;
	case ENC_A_DRAW:
		hg_buf_printf(body, "draw %d", a->pile + 1);
		opt_card(s, a->card, body);
		break;
	case ENC_A_PUT:
		hg_buf_printf(body, "put %s %s", a->card == -2 ? "?" : enc_card_id(s, a->card),
			      a->visible ? "visible" : "hidden");
		if (a->has_ref) {
			hg_buf_putc(body, ' ');
			enc_format_ref(&a->ref2, body);
		}
		break;
	case ENC_A_SHOW:
	case ENC_A_TAKE:
		hg_buf_puts(body, a->kind == ENC_A_SHOW ? "show " : "take ");
		enc_format_ref(&a->ref, body);
		opt_card(s, a->card, body);
		break;
	case ENC_A_MOVE:
		hg_buf_puts(body, "move ");
		enc_format_ref(&a->ref, body);
		hg_buf_putc(body, ' ');
		enc_format_ref(&a->ref2, body);
		break;
	case ENC_A_USE: {
		hg_buf_printf(body, "use %s", a->src == ENC_SRC_TOWER ? "tower" :
			      enc_card_id(s, a->src_card));
		if (a->other >= 0)
			hg_buf_printf(body, " > %s", enc_seat_name(a->other));
		for (int g = 0; g < a->ngroups; g++) {
			hg_buf_puts(body, " /");
			for (int i = 0; i < a->nitems; i++)
				if (a->items[i].group == g) {
					hg_buf_putc(body, ' ');
					enc_format_item(s, &a->items[i], body);
				}
		}
		if (a->has_outcome) {
			hg_buf_puts(body, " =");
			for (int i = 0; i < a->nout; i++) {
				const enc_outcome *o = &a->out[i];
				hg_buf_puts(body, i ? ", " : " ");
				switch (o->kind) {
				case ENC_OUT_NOTHING:
					hg_buf_puts(body, "nothing");
					break;
				case ENC_OUT_DISCARD:
					hg_buf_printf(body, "discard %s ", enc_seat_name(o->seat));
					enc_format_item(s, &o->item, body);
					break;
				case ENC_OUT_TOWER:
					hg_buf_printf(body, "tower %s %d", enc_seat_name(o->seat), o->amount);
					break;
				case ENC_OUT_WEAR:
					hg_buf_printf(body, "wear %s %d", enc_seat_name(o->seat), o->amount);
					break;
				}
			}
		}
		break;
	}
	case ENC_A_PASS:
		hg_buf_puts(body, "pass");
		break;
	case ENC_A_WAR:
		hg_buf_printf(body, "war %s", enc_seat_name(a->other));
		break;
	case ENC_A_DEFEND:
		hg_buf_puts(body, "defend");
		break;
	case ENC_A_YIELD:
		hg_buf_puts(body, "yield");
		break;
	case ENC_A_ARMY:
		hg_buf_printf(body, "army %c", 'a' + a->army);
		break;
	case ENC_A_REVEAL:
		hg_buf_puts(body, "reveal");
		opt_card(s, a->card, body);
		break;
	case ENC_A_FIGHT:
		hg_buf_puts(body, "fight");
		break;
	case ENC_A_TARGET:
		if (a->tgt == ENC_TGT_TOWER)
			hg_buf_puts(body, "target tower");
		else if (a->tgt == ENC_TGT_ARMY)
			hg_buf_printf(body, "target army %c", 'a' + a->army);
		else
			hg_buf_printf(body, "target %s", enc_card_id(s, a->card));
		break;
	case ENC_A_RETARGET:
		hg_buf_printf(body, "retarget %s", enc_card_id(s, a->card));
		break;
	case ENC_A_FORCE:
		hg_buf_puts(body, "force ");
		if (a->has_ref) {
			enc_format_ref(&a->ref, body);
			opt_card(s, a->card, body);
		} else {
			hg_buf_puts(body, enc_card_id(s, a->card));
		}
		break;
	case ENC_A_REGROUP:
		hg_buf_puts(body, "regroup");
		break;
	case ENC_A_END:
		hg_buf_puts(body, "end");
		break;
	}
}
