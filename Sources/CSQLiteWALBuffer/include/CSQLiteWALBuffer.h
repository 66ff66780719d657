#ifndef CSQLITE_WAL_BUFFER_H
#define CSQLITE_WAL_BUFFER_H

#include <sqlite3.h>

/// The name of the SQLite VFS that `chirp_wal_buffer_register` registers; open a database
/// with it through a URI filename: `file:/path/to/db?vfs=chirp-wal-buffer`.
#define CHIRP_WAL_BUFFER_VFS "chirp-wal-buffer"

/// Registers (once; later calls only return the first result) a VFS over the default one in
/// which a write-ahead log's frames are gathered in memory and written to the file with one
/// write per transaction instead of two per page. Every other file, and every other call,
/// goes straight to the default VFS. Returns an SQLite result code.
int chirp_wal_buffer_register(void);

/// 1 if this SQLite opens URI filenames (`file:…?vfs=…`) without being asked per connection
/// (built with SQLITE_USE_URI, as Debian's is); 0 if such a name would be taken literally.
int chirp_wal_buffer_uri_filenames(void);

/// For a connection whose write-ahead log is open through the VFS: the writes SQLite asked
/// for on it and the writes the VFS made, since it was opened; returns 1. Returns 0 (and
/// leaves the counts alone) for any other connection.
int chirp_wal_buffer_counts(sqlite3 *db, long long *requested, long long *performed);

#endif
