/* mail-in.c - reading one incoming e-mail with GMime: the sender, the
 * subject (RFC 2047 words decoded), the ids a reply refers to, and the
 * first plain-text part decoded (quoted-printable, base64) and converted
 * to UTF-8, within the limits of judge.h. */
#include "config.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <gmime/gmime.h>

#include "judge.h"

void judge_mail_init(void)
{
	g_mime_init();
}

void judge_mail_shutdown(void)
{
	g_mime_shutdown();
}

const char *judge_mail_problem_text(judge_mail_problem p)
{
	switch (p) {
	case JUDGE_MAIL_OK:
		return "read";
	case JUDGE_MAIL_UNPARSEABLE:
		return "it is not an e-mail message herald can read";
	case JUDGE_MAIL_TOO_LARGE:
		return "it is larger than the 100 MiB herald reads";
	case JUDGE_MAIL_TOO_DEEP:
		return "its MIME parts are nested more than 8 deep";
	case JUDGE_MAIL_NO_TEXT:
		return "it has no plain-text part (text/plain, at most 64 KiB) to read commands from";
	case JUDGE_MAIL_BAD_CHARSET:
		return "its text is in a character set herald cannot read";
	}
	return "?";
}

void judge_mail_free(judge_mail *m)
{
	free(m->from);
	free(m->subject);
	free(m->message_id);
	free(m->references);
	free(m->text);
	free(m->detail);
	memset(m, 0, sizeof *m);
}

/* The nesting depth of the MIME structure, counted without recursion in
 * the raw headers would be guesswork; GMime has parsed the message by now
 * (its parser keeps its own stack of boundaries), so the tree is walked
 * here with an explicit bound instead.  Returns 1 when deeper than
 * JUDGE_MAX_DEPTH. */
static int too_deep(GMimeObject *obj, int depth)
{
	if (depth > JUDGE_MAX_DEPTH)
		return 1;
	if (GMIME_IS_MULTIPART(obj)) {
		GMimeMultipart *mp = GMIME_MULTIPART(obj);
		int n = g_mime_multipart_get_count(mp);
		for (int i = 0; i < n; i++)
			if (too_deep(g_mime_multipart_get_part(mp, i), depth + 1))
				return 1;
	} else if (GMIME_IS_MESSAGE_PART(obj)) {
		GMimeMessage *inner = g_mime_message_part_get_message(GMIME_MESSAGE_PART(obj));
		if (inner && g_mime_message_get_mime_part(inner) &&
		    too_deep(g_mime_message_get_mime_part(inner), depth + 1))
			return 1;
	}
	return 0;
}

/* Reads at most JUDGE_MAX_TEXT + 1 bytes of a stream into out. */
static void read_bounded(GMimeStream *s, hg_buf *out)
{
	char chunk[4096];
	while (out->len <= JUDGE_MAX_TEXT) {
		size_t want = sizeof chunk;
		if (want > JUDGE_MAX_TEXT + 1 - out->len)
			want = JUDGE_MAX_TEXT + 1 - out->len;
		ssize_t got = g_mime_stream_read(s, chunk, want);
		if (got <= 0)
			break;
		hg_buf_putn(out, chunk, (size_t)got);
	}
}

static int is_ascii(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] >= 0x80)
			return 0;
	return 1;
}

static char *latin1_to_utf8(const char *s, size_t n)
{
	hg_buf b;
	hg_buf_init(&b);
	for (size_t i = 0; i < n; i++)
		hg_utf8_put(&b, (unsigned char)s[i]);
	return cli_buf_steal(&b);
}

/* Decodes a text part into UTF-8: 0 with *text set, 1 when the part is
 * too long (to be skipped), -1 with m->problem set. */
static int decode_text(GMimePart *part, judge_mail *m, char **text)
{
	GMimeDataWrapper *content = g_mime_part_get_content(part);
	if (!content) {
		*text = cli_xstrdup("");
		return 0;
	}
	GMimeStream *raw = g_mime_data_wrapper_get_stream(content);
	g_mime_stream_reset(raw);
	GMimeStream *filtered = g_mime_stream_filter_new(raw);
	GMimeContentEncoding enc = g_mime_data_wrapper_get_encoding(content);
	if (enc != GMIME_CONTENT_ENCODING_DEFAULT) {
		GMimeFilter *decoder = g_mime_filter_basic_new(enc, FALSE);
		g_mime_stream_filter_add(GMIME_STREAM_FILTER(filtered), decoder);
		g_object_unref(decoder);
	}
	hg_buf bytes;
	hg_buf_init(&bytes);
	read_bounded(filtered, &bytes);
	g_object_unref(filtered);
	if (hg_buf_failed(&bytes))
		cli_out_of_memory();	/* (a text read in part is never taken) */
	if (bytes.len > JUDGE_MAX_TEXT) {
		hg_buf_free(&bytes);
		return 1;
	}
	const char *data = bytes.data ? bytes.data : "";
	const char *charset = g_mime_object_get_content_type_parameter(GMIME_OBJECT(part), "charset");
	int rc = 0;
	if (is_ascii(data, bytes.len) ||
	    (charset && (strcasecmp(charset, "utf-8") == 0 || strcasecmp(charset, "utf8") == 0))) {
		*text = cli_xstrndup(data, bytes.len);
	} else if (!charset || strcasecmp(charset, "us-ascii") == 0) {
		/* Undeclared 8-bit text: UTF-8 when it is, else Latin-1 (what
		 * old Spanish mailers send without saying so). */
		if (hg_utf8_invalid_at(data, bytes.len) == (size_t)-1)
			*text = cli_xstrndup(data, bytes.len);
		else
			*text = latin1_to_utf8(data, bytes.len);
	} else {
		/* iconv through GMime's charset map (aliases such as latin1 or
		 * cp1252 included). */
		GMimeStream *mem = g_mime_stream_mem_new_with_buffer(data, bytes.len);
		GMimeStream *conv = g_mime_stream_filter_new(mem);
		GMimeFilter *cf = g_mime_filter_charset_new(charset, "UTF-8");
		if (!cf) {
			rc = -1;
		} else {
			g_mime_stream_filter_add(GMIME_STREAM_FILTER(conv), cf);
			g_object_unref(cf);
			hg_buf out;
			hg_buf_init(&out);
			char chunk[4096];
			ssize_t got;
			/* UTF-8 is at most 3 bytes per byte of any 8-bit set and
			 * 2 per 2 of the wider ones: bounded by the input. */
			while ((got = g_mime_stream_read(conv, chunk, sizeof chunk)) > 0)
				hg_buf_putn(&out, chunk, (size_t)got);
			*text = cli_buf_steal(&out);
		}
		g_object_unref(conv);
		g_object_unref(mem);
	}
	if (rc == 0 && hg_utf8_invalid_at(*text, strlen(*text)) != (size_t)-1) {
		free(*text);
		*text = NULL;
		rc = -1;
	}
	if (rc != 0) {
		m->problem = JUDGE_MAIL_BAD_CHARSET;
		hg_buf d;
		hg_buf_init(&d);
		hg_buf_printf(&d, "the text part's charset \"%.60s\" could not be read",
			      charset ? charset : "(none)");
		m->detail = cli_buf_steal(&d);
	}
	hg_buf_free(&bytes);
	return rc;
}

/* The first inline text/plain part, depth first, of at most
 * JUDGE_MAX_TEXT bytes; parts inside an attached message are not the
 * sender's words and are not looked at.  1: found (m->text set); 0: not
 * here; -1: a problem (m->problem set). */
static int find_text(GMimeObject *obj, judge_mail *m, unsigned *parts)
{
	if (++*parts > JUDGE_MAX_PARTS)
		return 0;
	if (GMIME_IS_MULTIPART(obj)) {
		GMimeMultipart *mp = GMIME_MULTIPART(obj);
		int n = g_mime_multipart_get_count(mp);
		for (int i = 0; i < n; i++) {
			int rc = find_text(g_mime_multipart_get_part(mp, i), m, parts);
			if (rc != 0)
				return rc;
		}
		return 0;
	}
	if (!GMIME_IS_PART(obj))
		return 0;
	GMimeContentType *ct = g_mime_object_get_content_type(obj);
	if (!ct || !g_mime_content_type_is_type(ct, "text", "plain"))
		return 0;
	if (g_mime_part_is_attachment(GMIME_PART(obj)))
		return 0;
	char *text = NULL;
	int rc = decode_text(GMIME_PART(obj), m, &text);
	if (rc == 1)
		return 0;	/* too long: as an attachment */
	if (rc < 0)
		return -1;
	m->text = text;
	return 1;
}

static char *lower_dup(const char *s)
{
	char *r = cli_xstrdup(s);
	for (char *p = r; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	return r;
}

/* A message that an auto-responder or a mail system sent (RFC 3834's
 * Auto-Submitted, Precedence bulk/junk/list, a bounce's sender): the judge
 * never answers it, so that two robots do not write to each other
 * forever. */
static int is_automatic(GMimeMessage *msg, const char *from)
{
	GMimeObject *o = GMIME_OBJECT(msg);
	const char *as = g_mime_object_get_header(o, "Auto-Submitted");
	if (as) {
		while (*as == ' ' || *as == '\t')
			as++;
		if (strncasecmp(as, "no", 2) != 0)
			return 1;
	}
	const char *prec = g_mime_object_get_header(o, "Precedence");
	if (prec && (strcasestr(prec, "bulk") || strcasestr(prec, "junk") || strcasestr(prec, "list")))
		return 1;
	if (from && (strncmp(from, "mailer-daemon@", 14) == 0 || strncmp(from, "postmaster@", 11) == 0))
		return 1;
	return 0;
}

static void read_headers(GMimeMessage *msg, judge_mail *m)
{
	InternetAddressList *from = g_mime_message_get_from(msg);
	if (from && internet_address_list_length(from) > 0) {
		InternetAddress *ia = internet_address_list_get_address(from, 0);
		if (INTERNET_ADDRESS_IS_MAILBOX(ia)) {
			const char *addr = internet_address_mailbox_get_addr(INTERNET_ADDRESS_MAILBOX(ia));
			if (addr && strchr(addr, '@') && strlen(addr) < 255)
				m->from = lower_dup(addr);
		}
	}
	const char *subject = g_mime_message_get_subject(msg);
	m->subject = cli_xstrdup(subject ? subject : "");
	if (hg_utf8_invalid_at(m->subject, strlen(m->subject)) != (size_t)-1) {
		char *fixed = latin1_to_utf8(m->subject, strlen(m->subject));
		free(m->subject);
		m->subject = fixed;
	}
	const char *id = g_mime_message_get_message_id(msg);
	if (id && *id && strlen(id) < 256)
		m->message_id = cli_xstrdup(id);
	const char *refs = g_mime_object_get_header(GMIME_OBJECT(msg), "References");
	if (refs && strlen(refs) < 4096)
		m->references = cli_xstrdup(refs);
	m->automatic = is_automatic(msg, m->from);
}

void judge_mail_read(const char *path, int truncated, judge_mail *m)
{
	memset(m, 0, sizeof *m);
	m->subject = cli_xstrdup("");
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		m->problem = JUDGE_MAIL_UNPARSEABLE;
		return;
	}
	GMimeStream *stream = g_mime_stream_fs_new(fd);	/* owns fd */
	GMimeParser *parser = g_mime_parser_new_with_stream(stream);
	/* Parts stay in the file: a 50 MB attachment is never read in. */
	g_mime_parser_set_persist_stream(parser, TRUE);
	GMimeMessage *msg = g_mime_parser_construct_message(parser, NULL);
	g_object_unref(parser);
	if (!msg) {
		m->problem = JUDGE_MAIL_UNPARSEABLE;
		g_object_unref(stream);
		return;
	}
	free(m->subject);
	m->subject = NULL;
	read_headers(msg, m);
	GMimeObject *body = g_mime_message_get_mime_part(msg);
	unsigned parts = 0;
	if (truncated)
		m->problem = JUDGE_MAIL_TOO_LARGE;
	else if (!body)
		m->problem = JUDGE_MAIL_NO_TEXT;
	else if (too_deep(body, 0))
		m->problem = JUDGE_MAIL_TOO_DEEP;
	else if (find_text(body, m, &parts) == 0)
		m->problem = JUDGE_MAIL_NO_TEXT;
	g_object_unref(msg);
	g_object_unref(stream);
}
