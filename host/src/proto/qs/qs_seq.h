/*
 * qs_seq.h -- QSPY's sequence diagrams (QSPY -g OBJ,...; the .seq file):
 * the same text QSPY 7.4 writes, from the same records.
 *
 * The diagram has a lane for each name of the list (at most 10; "?" is the
 * system border, where posts from and to objects not in the list go).
 * Objects join their lane when an object dictionary entry with the lane's
 * name arrives (QSPY keeps at most 9 such addresses); the records drawn are
 * posts (AO-Post, AO-PostA, AO-LIFO), publishes, transitions (the target
 * state, without the state machine's prefix), defer/recall and ticks.
 * Every 100 lines the lane header is repeated.
 */
#ifndef SONDE_QS_SEQ_H
#define SONDE_QS_SEQ_H

#include <stddef.h>
#include <stdint.h>

struct qs_dec;
struct qs_fields;
struct qs_seq;

/* A diagram of the comma-separated names in list (QSPY's -g argument,
 * kept to its first 299 characters as QSPY does).  NULL when out of
 * memory.  More than 10 names: QSPY's notice goes to note (else note[0]
 * is 0) and the first 10 are kept. */
struct qs_seq *qs_seq_new(const char *list, char *note, size_t cap);
void qs_seq_free(struct qs_seq *s);

/* Start writing to path: the list line and the header.  0 ok, -1 with
 * errno when the file cannot be created. */
int qs_seq_open(struct qs_seq *s, const char *path);
/* Stop writing (the file is closed).  0 ok, -1 with errno if a write
 * to it failed. */
int qs_seq_close(struct qs_seq *s);
/* The file written to, NULL when closed. */
const char *qs_seq_path(const struct qs_seq *s);
/* QSPY's name for a new file: qspy<YYMMDD_hhmmss>.seq, local time now. */
void qs_seq_default_path(char *out, size_t cap);

/* Lanes: all addresses forgotten (the dictionaries were reset); with
 * null_too, address 0 is then given to a lane named "NULL", as QSPY
 * does after a target reset. */
void qs_seq_forget(struct qs_seq *s, int null_too);
/* An object dictionary entry: the address joins the lane of that name. */
void qs_seq_object(struct qs_seq *s, uint64_t addr, const char *name, size_t n);

/* A record decoded without error (every field read, none left over):
 * its line in the diagram, if it has one.  ts is the raw timestamp. */
void qs_seq_record(struct qs_dec *d, unsigned rec, uint64_t ts, const struct qs_fields *fl);

#endif /* SONDE_QS_SEQ_H */
