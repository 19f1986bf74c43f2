/* body.c - what a player wrote, out of a plain-text body: the command
 * lines without the quoted reply, the signature or the quoted message a
 * mail program puts under a reply; and the game id of a subject. */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "judge.h"

/* Does the line end in "wrote:" (or a Spanish mailer's "escribió:"), as
 * the line above a quoted message does ("On Mon, 1 Jan 2026, Ana
 * <ana@example.org> wrote:")? */
static int is_attribution(const char *line, size_t len)
{
	static const char *const endings[] = { "wrote:", "escribi\xc3\xb3:", "escribio:" };
	for (size_t i = 0; i < sizeof endings / sizeof endings[0]; i++) {
		size_t n = strlen(endings[i]);
		if (len >= n && strncasecmp(line + len - n, endings[i], n) == 0)
			return 1;
	}
	return 0;
}

/* A line after which everything is a quoted or forwarded message. */
static int starts_quoted_message(const char *line, size_t len)
{
	static const char *const markers[] = {
		"-----Original Message-----", "----- Original Message -----",
		"-----Mensaje original-----", "----- Mensaje original -----",
		"Begin forwarded message:", "---------- Forwarded message ---------",
	};
	for (size_t i = 0; i < sizeof markers / sizeof markers[0]; i++)
		if (len == strlen(markers[i]) && strncasecmp(line, markers[i], len) == 0)
			return 1;
	return is_attribution(line, len);
}

/* The length of s[0..len) cut to at most max bytes at a character's
 * start. */
static size_t cut_utf8(const char *s, size_t len, size_t max)
{
	if (len <= max)
		return len;
	size_t n = max;
	while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
		n--;
	return n;
}

size_t judge_body_commands(const char *text, char ***lines)
{
	size_t n = 0;
	char **v = cli_xrealloc(NULL, JUDGE_MAX_COMMANDS * sizeof *v);
	memset(v, 0, JUDGE_MAX_COMMANDS * sizeof *v);
	const char *p = text;
	while (*p && n < JUDGE_MAX_COMMANDS) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		const char *next = eol ? eol + 1 : p + len;
		/* The signature separator is "-- " exactly (RFC 3676); "--"
		 * alone as many mailers trim it. */
		size_t raw = len;
		if (raw && p[raw - 1] == '\r')
			raw--;
		if ((raw == 3 && memcmp(p, "-- ", 3) == 0) || (raw == 2 && memcmp(p, "--", 2) == 0))
			break;
		const char *s = p;
		while (len && (*s == ' ' || *s == '\t')) {
			s++;
			len--;
		}
		while (len && isspace((unsigned char)s[len - 1]))
			len--;
		p = next;
		if (len == 0 || *s == '>')
			continue;
		if (starts_quoted_message(s, len))
			break;
		char *line = cli_xstrndup(s, cut_utf8(s, len, JUDGE_MAX_LINE));
		/* Tabs and other control characters become spaces: a command
		 * line is words. */
		for (char *c = line; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				*c = ' ';
		v[n++] = line;
	}
	*lines = v;
	return n;
}

static int id_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
}

int judge_game_id_ok(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > 40 || s[0] == '-')
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!id_char(s[i]))
			return 0;
	return 1;
}

char *judge_subject_game(const char *subject)
{
	for (const char *p = strchr(subject, '['); p; p = strchr(p + 1, '[')) {
		const char *close = strchr(p + 1, ']');
		if (!close)
			return NULL;
		char *id = cli_xstrndup(p + 1, (size_t)(close - p - 1));
		if (judge_game_id_ok(id))
			return id;
		free(id);
	}
	return NULL;
}
