/* mail-out.c - the judge's outgoing messages: complete RFC 5322 messages
 * built with GMime (Date, Message-ID, From, To, Subject, In-Reply-To and
 * References, Auto-Submitted), delivered into a Maildir (maildir.c) or
 * handed to `sendmail -t -oi`. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gmime/gmime.h>

#include "judge.h"

static int write_all(int fd, const char *data, size_t len)
{
	while (len > 0) {
		ssize_t w = write(fd, data, len);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		data += w;
		len -= (size_t)w;
	}
	return 0;
}

/* Runs `program -t -oi` with the message on its standard input: 0 when it
 * exits 0. */
static int pipe_to_sendmail(const char *program, const char *data, size_t len)
{
	int fds[2];
	if (pipe(fds) != 0)
		return -1;
	pid_t pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		dup2(fds[0], 0);
		close(fds[0]);
		close(fds[1]);
		execlp(program, program, "-t", "-oi", (char *)NULL);
		_exit(127);
	}
	close(fds[0]);
	struct sigaction ign, old;
	memset(&ign, 0, sizeof ign);
	ign.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &ign, &old);
	int werr = write_all(fds[1], data, len);
	close(fds[1]);
	sigaction(SIGPIPE, &old, NULL);
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return werr == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* The domain of an address, for the Message-ID. */
static const char *domain_of(const char *addr)
{
	const char *at = strrchr(addr, '@');
	return at && at[1] ? at + 1 : "localhost";
}

/* The In-Reply-To id in angle brackets, or NULL short of memory. */
static char *bracketed(const char *id)
{
	hg_buf b;
	hg_buf_init(&b);
	hg_buf_printf(&b, "<%s>", id);
	if (hg_buf_failed(&b)) {
		hg_buf_free(&b);
		return NULL;
	}
	return hg_buf_steal(&b);
}

static GMimeTextPart *text_part(const char *text)
{
	GMimeTextPart *tp = g_mime_text_part_new_with_subtype("plain");
	g_mime_text_part_set_text(tp, text);	/* charset utf-8 (or us-ascii) */
	g_mime_part_set_content_encoding(GMIME_PART(tp), GMIME_CONTENT_ENCODING_QUOTEDPRINTABLE);
	return tp;
}

/* The whole message as text, '\n' line ends (sendmail and Maildir both
 * take them); NULL short of memory (GLib's own allocations abort: see
 * herald-judge(1), BUGS). */
static char *build(const judge_outbox *box, const judge_message *msg)
{
	int short_of_memory = 0;
	GMimeMessage *m = g_mime_message_new(TRUE);
	g_mime_message_add_mailbox(m, GMIME_ADDRESS_TYPE_FROM, "herald judge", box->from);
	g_mime_message_add_mailbox(m, GMIME_ADDRESS_TYPE_TO, NULL, msg->to);
	g_mime_message_set_subject(m, msg->subject, "utf-8");
	GDateTime *date = g_date_time_new_from_unix_utc((gint64)box->now);
	g_mime_message_set_date(m, date);
	g_date_time_unref(date);
	char *id = g_mime_utils_generate_message_id(domain_of(box->from));
	g_mime_message_set_message_id(m, id);
	g_free(id);
	GMimeObject *o = GMIME_OBJECT(m);
	if (msg->in_reply_to) {
		char *irt = bracketed(msg->in_reply_to);
		hg_buf refs;
		hg_buf_init(&refs);
		if (msg->references)
			hg_buf_printf(&refs, "%s ", msg->references);
		hg_buf_puts(&refs, irt ? irt : "");
		if (!irt || hg_buf_failed(&refs)) {
			short_of_memory = 1;
		} else {
			g_mime_object_set_header(o, "In-Reply-To", irt, NULL);
			g_mime_object_set_header(o, "References", refs.data, NULL);
		}
		hg_buf_free(&refs);
		free(irt);
	}
	/* RFC 3834: a robot's message; well-behaved responders leave it be. */
	g_mime_object_set_header(o, "Auto-Submitted", msg->in_reply_to ? "auto-replied" : "auto-generated", NULL);
	GMimeTextPart *body = text_part(msg->body);
	if (msg->attachment) {
		GMimeMultipart *mixed = g_mime_multipart_new_with_subtype("mixed");
		g_mime_multipart_add(mixed, GMIME_OBJECT(body));
		GMimeTextPart *att = text_part(msg->attachment);
		g_mime_object_set_disposition(GMIME_OBJECT(att), GMIME_DISPOSITION_ATTACHMENT);
		g_mime_part_set_filename(GMIME_PART(att), msg->attachment_name);
		g_mime_multipart_add(mixed, GMIME_OBJECT(att));
		g_object_unref(att);
		g_mime_message_set_mime_part(m, GMIME_OBJECT(mixed));
		g_object_unref(mixed);
	} else {
		g_mime_message_set_mime_part(m, GMIME_OBJECT(body));
	}
	g_object_unref(body);
	GMimeFormatOptions *fo = g_mime_format_options_new();
	g_mime_format_options_set_newline_format(fo, GMIME_NEWLINE_FORMAT_UNIX);
	char *text = g_mime_object_to_string(o, fo);
	g_mime_format_options_free(fo);
	g_object_unref(m);
	char *copy = short_of_memory ? NULL : strdup(text);
	g_free(text);
	return copy;
}

/* Delivers one composed message: 0, or -1 after a message on stderr. */
static int deliver(judge_outbox *box, const char *text, const char *to)
{
	int rc;
	if (box->maildir) {
		rc = judge_maildir_deliver(box->maildir, text, strlen(text), NULL);
		if (rc != 0)
			fprintf(stderr, "herald judge: cannot deliver into the Maildir %s: %s\n",
				box->maildir, strerror(errno));
	} else {
		rc = pipe_to_sendmail(box->sendmail, text, strlen(text));
		if (rc != 0)
			fprintf(stderr, "herald judge: %s -t -oi failed for a message to %s\n",
				box->sendmail, to);
	}
	if (rc == 0)
		box->sent++;
	return rc;
}

int judge_send(judge_outbox *box, const judge_message *msg)
{
	char *text = build(box, msg);
	if (!text) {
		fputs("herald: out of memory\n", stderr);
		return -1;
	}
	int rc = deliver(box, text, msg->to);
	free(text);
	return rc;
}

int judge_queue(judge_outbox *box, const judge_message *msg)
{
	char *text = build(box, msg);
	char *to = strdup(msg->to);
	judge_queued *grown = NULL;
	if (text && to)
		grown = realloc(box->queue, (box->nqueued + 1) * sizeof *box->queue);
	if (!grown) {
		free(text);
		free(to);
		return HG_ENOMEM;
	}
	box->queue = grown;
	box->queue[box->nqueued].text = text;
	box->queue[box->nqueued].to = to;
	box->nqueued++;
	return 0;
}

int judge_flush(judge_outbox *box)
{
	int rc = 0;
	for (size_t i = 0; i < box->nqueued; i++)
		if (deliver(box, box->queue[i].text, box->queue[i].to) != 0)
			rc = -1;
	judge_discard(box);
	return rc;
}

void judge_discard(judge_outbox *box)
{
	for (size_t i = 0; i < box->nqueued; i++) {
		free(box->queue[i].text);
		free(box->queue[i].to);
	}
	free(box->queue);
	box->queue = NULL;
	box->nqueued = 0;
}
