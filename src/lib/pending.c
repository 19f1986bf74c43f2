/* pending.c - an action held pending while other seats answer within it
 * (herald-move(1), PENDING ACTIONS).  What every seat may know of it goes
 * into the record's tags:
 *
 *   [Pending "damasco: attack baalbek from homs"]
 *   [PendingAwaits "alepo, jerusalen"]
 *   [PendingFaceDown "damasco 4, antioquia 0"]
 *
 * and each part's decisions (the cards put down face down) into the
 * master's secret file beside the key file, whose lines are
 *
 *   herald-pending 1
 *   commit <SeedCommit>
 *   actions <the main line's actions when it was written>
 *   part <seat> <cards face down> <text>
 *
 * so that a file left from another game or another position is refused
 * rather than played. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

void hg_pending_free(hg_pending *p)
{
	free(p->seat);
	free(p->declared);
	for (size_t i = 0; i < p->nparts; i++) {
		free(p->parts[i].seat);
		free(p->parts[i].text);
	}
	free(p->parts);
	hg_strv_free(p->awaited, p->nawaited);
	memset(p, 0, sizeof *p);
}

void hg_pending_set_part(hg_pending *p, const char *seat, const char *text, int face_down)
{
	size_t i = 0;
	while (i < p->nparts && strcmp(p->parts[i].seat, seat) != 0)
		i++;
	if (i == p->nparts) {
		p->parts = hg_xrealloc(p->parts, (p->nparts + 1) * sizeof *p->parts);
		p->parts[p->nparts++].seat = hg_xstrdup(seat);
	} else {
		free(p->parts[i].text);
	}
	p->parts[i].text = text ? hg_xstrdup(text) : NULL;
	p->parts[i].face_down = face_down;
	for (size_t k = 0; k < p->nawaited; k++)
		if (strcmp(p->awaited[k], seat) == 0) {
			free(p->awaited[k]);
			memmove(p->awaited + k, p->awaited + k + 1,
				(p->nawaited - k - 1) * sizeof *p->awaited);
			p->nawaited--;
			break;
		}
}

void hg_pending_await(hg_pending *p, const char *seat)
{
	if (hg_pending_awaits(p, seat))
		return;
	p->awaited = hg_xrealloc(p->awaited, (p->nawaited + 1) * sizeof *p->awaited);
	p->awaited[p->nawaited++] = hg_xstrdup(seat);
}

int hg_pending_awaits(const hg_pending *p, const char *seat)
{
	for (size_t k = 0; k < p->nawaited; k++)
		if (hg_name_eq(p->awaited[k], seat))
			return 1;
	return 0;
}

/* The next item of a ", "-separated list: its bytes from *at to the
 * comma (blanks trimmed), *at moved past it; NULL at the end. */
static char *next_item(const char **at)
{
	const char *s = *at;
	while (*s == ' ' || *s == ',')
		s++;
	if (!*s)
		return NULL;
	const char *end = strchr(s, ',');
	if (!end)
		end = s + strlen(s);
	*at = end;
	while (end > s && end[-1] == ' ')
		end--;
	return hg_xstrndup(s, (size_t)(end - s));
}

int hg_pending_from_tags(const hg_game_record *rec, hg_pending *p)
{
	memset(p, 0, sizeof *p);
	const char *what = hg_record_tag_value(rec, "Pending");
	const char *colon = what ? strchr(what, ':') : NULL;
	if (!colon)
		return 0;
	p->seat = hg_xstrndup(what, (size_t)(colon - what));
	colon++;
	while (*colon == ' ')
		colon++;
	p->declared = hg_xstrdup(colon);
	const char *at = hg_record_tag_value(rec, "PendingAwaits");
	char *item;
	while (at && (item = next_item(&at)) != NULL) {
		hg_pending_await(p, item);
		free(item);
	}
	at = hg_record_tag_value(rec, "PendingFaceDown");
	while (at && (item = next_item(&at)) != NULL) {
		char *space = strrchr(item, ' ');
		if (space) {
			*space = '\0';
			/* a count from the record: bounded, whatever it says */
			long count = strtol(space + 1, NULL, 10);
			p->parts = hg_xrealloc(p->parts, (p->nparts + 1) * sizeof *p->parts);
			p->parts[p->nparts].seat = hg_xstrdup(item);
			p->parts[p->nparts].text = NULL;
			p->parts[p->nparts++].face_down = count < 0 ? 0 : count > 9999 ? 9999 : (int)count;
		}
		free(item);
	}
	return 1;
}

void hg_pending_to_tags(hg_game_record *rec, const hg_pending *p)
{
	hg_buf b;
	hg_buf_init(&b);
	hg_buf_printf(&b, "%s: %s", p->seat, p->declared);
	hg_record_set_tag(rec, "Pending", b.data);
	hg_buf_clear(&b);
	hg_buf_join(&b, p->awaited, p->nawaited, ", ");
	hg_record_set_tag(rec, "PendingAwaits", b.data ? b.data : "");
	hg_buf_clear(&b);
	for (size_t i = 0; i < p->nparts; i++)
		hg_buf_printf(&b, "%s%s %d", i ? ", " : "", p->parts[i].seat, p->parts[i].face_down);
	hg_record_set_tag(rec, "PendingFaceDown", b.data ? b.data : "");
	hg_buf_free(&b);
}

void hg_pending_summary(const hg_pending *p, hg_buf *out)
{
	hg_buf_printf(out, "pending: %s: %s\nface down:", p->seat, p->declared);
	for (size_t i = 0; i < p->nparts; i++)
		hg_buf_printf(out, "%s %s %d", i ? "," : "", p->parts[i].seat, p->parts[i].face_down);
	hg_buf_puts(out, "\nawaiting:");
	if (p->nawaited) {
		hg_buf_putc(out, ' ');
		hg_buf_join(out, p->awaited, p->nawaited, ", ");
	}
	hg_buf_putc(out, '\n');
}

void hg_pending_clear_tags(hg_game_record *rec)
{
	hg_record_remove_tag(rec, "Pending");
	hg_record_remove_tag(rec, "PendingAwaits");
	hg_record_remove_tag(rec, "PendingFaceDown");
}

int hg_pending_secret_write(const char *path, const char *commit, size_t nactions,
			    const hg_pending *p)
{
	hg_buf b;
	hg_buf_init(&b);
	hg_buf_printf(&b, "herald-pending 1\ncommit %s\nactions %zu\n", commit, nactions);
	for (size_t i = 0; i < p->nparts; i++)
		hg_buf_printf(&b, "part %s %d %s\n", p->parts[i].seat, p->parts[i].face_down,
			      p->parts[i].text ? p->parts[i].text : "");
	/* The atomic write keeps the mode of the file it replaces: one made
	 * (or left) here with mode 0600 first, so that the secret is never
	 * readable by others, not even for a moment. */
	int rc = -1, fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd >= 0 && fchmod(fd, 0600) == 0 && close(fd) == 0)
		rc = hg_write_file_atomic(path, b.data, b.len);
	else if (fd >= 0)
		close(fd);
	hg_buf_free(&b);
	return rc;
}

static hg_pos file_pos(const char *path)
{
	hg_pos p = { path, 0, 0 };
	return p;
}

int hg_pending_secret_read(const char *path, const char *commit, size_t nactions,
			   hg_pending *p, hg_diags *d)
{
	hg_buf text;
	hg_buf_init(&text);
	FILE *f = fopen(path, "re");
	if (!f) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, file_pos(path), "master.pending",
					  "the record holds a pending action, but its secret cannot be read: %s",
					  strerror(errno));
		hg_diag_note(dg, "the organiser may end the game ('herald end')");
		return -1;
	}
	char chunk[4096];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0 && text.len < HG_MAX_LINE * 16)
		hg_buf_putn(&text, chunk, n);
	fclose(f);
	int header = 0, commit_ok = 0, count_ok = 0;
	char *save = NULL;
	for (char *line = strtok_r(text.data ? text.data : (char[]){ "" }, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (strcmp(line, "herald-pending 1") == 0) {
			header = 1;
		} else if (strncmp(line, "commit ", 7) == 0) {
			commit_ok = strcmp(line + 7, commit) == 0;
		} else if (strncmp(line, "actions ", 8) == 0) {
			count_ok = strtoull(line + 8, NULL, 10) == nactions;
		} else if (strncmp(line, "part ", 5) == 0) {
			char *seat = line + 5, *sp = strchr(seat, ' ');
			if (!sp)
				continue;
			*sp = '\0';
			char *rest;
			long count = strtol(sp + 1, &rest, 10);
			if (count < 0 || count > 9999)
				count = 0;
			if (*rest == ' ')
				rest++;
			for (size_t i = 0; i < p->nparts; i++)
				if (strcmp(p->parts[i].seat, seat) == 0 && !p->parts[i].text) {
					p->parts[i].text = hg_xstrdup(rest);
					p->parts[i].face_down = (int)count;
				}
		}
	}
	hg_buf_free(&text);
	int whole = header && commit_ok && count_ok;
	for (size_t i = 0; i < p->nparts && whole; i++)
		whole = p->parts[i].text != NULL;
	if (!whole) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, file_pos(path), "master.pending",
					  "the pending action's secret is not this game's, or not of this position");
		hg_diag_note(dg, "the organiser may end the game ('herald end')");
		return -1;
	}
	return 0;
}
