// A VFS shim over SQLite's default VFS that gathers a write-ahead log's writes.
//
// SQLite writes each WAL frame as two writes, its 24-byte header and then its page, so a
// transaction that touched 50 pages costs 100 `pwrite` calls before its one fsync. Here the
// writes of a WAL file are appended to a buffer while they follow one another, and the buffer
// goes to the file in one write:
//
// - right after the page of a commit frame (a frame header whose "database size after commit"
//   word is non-zero), so a committed transaction reaches the operating system before SQLite
//   syncs it or publishes it to readers in the wal-index, whatever `synchronous` is;
// - before anything that reads or measures the file or makes it durable (read, sync,
//   truncate, size, file controls, memory mapping, close);
// - before a write that does not continue the buffer (a frame rewritten in place, a new
//   header at offset 0 when the log restarts), and when it would exceed `MAX_GATHERED`.
//
// Frames that have not been written yet are frames of an uncommitted transaction, which no
// reader can see and which a crash would discard anyway. Every file that is not a WAL, and
// every method but those above, is the default VFS's own.

#include "CSQLiteWALBuffer.h"

#include <pthread.h>
#include <sqlite3.h>
#include <string.h>

#define ROUND8(x) (((x) + 7) & ~7)
#define MAX_GATHERED (4 << 20)
#define FRAME_HEADER_BYTES 24
// The largest write handed to the default VFS: SQLite itself never writes more than a 64 KiB
// page at once, and the unix VFS masks a write's length to 17 bits.
#define MAX_WRITE (64 * 1024)

/// A WAL file opened through the shim; the default VFS's file is stored right after it.
typedef struct GatheringFile {
    sqlite3_file base;
    sqlite3_file *real;
    unsigned char *bytes;
    sqlite3_int64 start;
    int count;
    int capacity;
    int flushAfterNextWrite;
    long long requestedWrites;
    long long performedWrites;
} GatheringFile;

static sqlite3_vfs gatheringVFS;
static sqlite3_io_methods gatheringMethods;
static pthread_once_t registration = PTHREAD_ONCE_INIT;
static int registrationResult = SQLITE_ERROR;

static sqlite3_file *realFile(sqlite3_file *file) { return ((GatheringFile *)file)->real; }

static int writeThrough(GatheringFile *f, const void *data, int amount, sqlite3_int64 offset) {
    const unsigned char *bytes = data;
    for (int done = 0; done < amount;) {
        int part = amount - done < MAX_WRITE ? amount - done : MAX_WRITE;
        f->performedWrites++;
        int rc = f->real->pMethods->xWrite(f->real, bytes + done, part, offset + done);
        if (rc != SQLITE_OK) return rc;
        done += part;
    }
    return SQLITE_OK;
}

static int flushGathered(GatheringFile *f) {
    f->flushAfterNextWrite = 0;
    if (f->count == 0) return SQLITE_OK;
    int count = f->count;
    f->count = 0;
    return writeThrough(f, f->bytes, count, f->start);
}

static int reserve(GatheringFile *f, int needed) {
    if (needed <= f->capacity) return 1;
    int capacity = f->capacity ? f->capacity : 64 * 1024;
    while (capacity < needed) capacity *= 2;
    if (capacity > MAX_GATHERED) capacity = MAX_GATHERED;
    if (capacity < needed) return 0;
    unsigned char *bytes = sqlite3_realloc64(f->bytes, (sqlite3_uint64)capacity);
    if (bytes == NULL) return 0;
    f->bytes = bytes;
    f->capacity = capacity;
    return 1;
}

static int isCommitFrameHeader(const void *data, int amount) {
    if (amount != FRAME_HEADER_BYTES) return 0;
    const unsigned char *header = data;
    return (header[4] | header[5] | header[6] | header[7]) != 0;
}

static int gatheringWrite(sqlite3_file *file, const void *data, int amount, sqlite3_int64 offset) {
    GatheringFile *f = (GatheringFile *)file;
    f->requestedWrites++;
    int completesCommit = f->flushAfterNextWrite;
    int rc = SQLITE_OK;
    if (f->count > 0 && (offset != f->start + f->count || f->count + amount > MAX_GATHERED)) {
        rc = flushGathered(f);
        if (rc != SQLITE_OK) return rc;
    }
    if (amount > MAX_GATHERED || !reserve(f, f->count + amount)) {
        // Out of memory (or a write larger than any page): write it as SQLite asked.
        rc = flushGathered(f);
        if (rc == SQLITE_OK) rc = writeThrough(f, data, amount, offset);
        if (rc == SQLITE_OK && !completesCommit && isCommitFrameHeader(data, amount)) f->flushAfterNextWrite = 1;
        return rc;
    }
    if (f->count == 0) f->start = offset;
    memcpy(f->bytes + f->count, data, (size_t)amount);
    f->count += amount;
    if (completesCommit) return flushGathered(f);
    if (isCommitFrameHeader(data, amount)) f->flushAfterNextWrite = 1;
    return SQLITE_OK;
}

static int gatheringClose(sqlite3_file *file) {
    GatheringFile *f = (GatheringFile *)file;
    int flushed = flushGathered(f);
    sqlite3_free(f->bytes);
    f->bytes = NULL;
    f->capacity = 0;
    int closed = f->real->pMethods->xClose(f->real);
    return flushed != SQLITE_OK ? flushed : closed;
}

static int gatheringRead(sqlite3_file *file, void *data, int amount, sqlite3_int64 offset) {
    int rc = flushGathered((GatheringFile *)file);
    return rc != SQLITE_OK ? rc : realFile(file)->pMethods->xRead(realFile(file), data, amount, offset);
}

static int gatheringTruncate(sqlite3_file *file, sqlite3_int64 size) {
    int rc = flushGathered((GatheringFile *)file);
    return rc != SQLITE_OK ? rc : realFile(file)->pMethods->xTruncate(realFile(file), size);
}

static int gatheringSync(sqlite3_file *file, int flags) {
    int rc = flushGathered((GatheringFile *)file);
    return rc != SQLITE_OK ? rc : realFile(file)->pMethods->xSync(realFile(file), flags);
}

static int gatheringFileSize(sqlite3_file *file, sqlite3_int64 *size) {
    int rc = flushGathered((GatheringFile *)file);
    return rc != SQLITE_OK ? rc : realFile(file)->pMethods->xFileSize(realFile(file), size);
}

static int gatheringLock(sqlite3_file *file, int lock) {
    return realFile(file)->pMethods->xLock(realFile(file), lock);
}

static int gatheringUnlock(sqlite3_file *file, int lock) {
    return realFile(file)->pMethods->xUnlock(realFile(file), lock);
}

static int gatheringCheckReservedLock(sqlite3_file *file, int *reserved) {
    return realFile(file)->pMethods->xCheckReservedLock(realFile(file), reserved);
}

static int gatheringFileControl(sqlite3_file *file, int op, void *argument) {
    int rc = flushGathered((GatheringFile *)file);
    return rc != SQLITE_OK ? rc : realFile(file)->pMethods->xFileControl(realFile(file), op, argument);
}

static int gatheringSectorSize(sqlite3_file *file) {
    return realFile(file)->pMethods->xSectorSize(realFile(file));
}

static int gatheringDeviceCharacteristics(sqlite3_file *file) {
    return realFile(file)->pMethods->xDeviceCharacteristics(realFile(file));
}

static int gatheringShmMap(sqlite3_file *file, int region, int size, int extend, void volatile **memory) {
    sqlite3_file *real = realFile(file);
    if (real->pMethods->iVersion < 2) return SQLITE_IOERR_SHMMAP;
    return real->pMethods->xShmMap(real, region, size, extend, memory);
}

static int gatheringShmLock(sqlite3_file *file, int offset, int count, int flags) {
    sqlite3_file *real = realFile(file);
    if (real->pMethods->iVersion < 2) return SQLITE_IOERR_SHMLOCK;
    return real->pMethods->xShmLock(real, offset, count, flags);
}

static void gatheringShmBarrier(sqlite3_file *file) {
    sqlite3_file *real = realFile(file);
    if (real->pMethods->iVersion >= 2) real->pMethods->xShmBarrier(real);
}

static int gatheringShmUnmap(sqlite3_file *file, int deleteFlag) {
    sqlite3_file *real = realFile(file);
    if (real->pMethods->iVersion < 2) return SQLITE_OK;
    return real->pMethods->xShmUnmap(real, deleteFlag);
}

static int gatheringFetch(sqlite3_file *file, sqlite3_int64 offset, int amount, void **pointer) {
    sqlite3_file *real = realFile(file);
    *pointer = NULL;
    int rc = flushGathered((GatheringFile *)file);
    if (rc != SQLITE_OK || real->pMethods->iVersion < 3) return rc;
    return real->pMethods->xFetch(real, offset, amount, pointer);
}

static int gatheringUnfetch(sqlite3_file *file, sqlite3_int64 offset, void *pointer) {
    sqlite3_file *real = realFile(file);
    if (real->pMethods->iVersion < 3) return SQLITE_OK;
    return real->pMethods->xUnfetch(real, offset, pointer);
}

static int gatheringOpen(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags, int *outFlags) {
    sqlite3_vfs *real = vfs->pAppData;
    if ((flags & SQLITE_OPEN_WAL) == 0) {
        // Not a log: the default VFS's file, in place, with its own methods.
        return real->xOpen(real, name, file, flags, outFlags);
    }
    GatheringFile *f = (GatheringFile *)file;
    memset(f, 0, sizeof(*f));
    f->real = (sqlite3_file *)((char *)file + ROUND8(sizeof(GatheringFile)));
    int rc = real->xOpen(real, name, f->real, flags, outFlags);
    f->base.pMethods = rc == SQLITE_OK ? &gatheringMethods : NULL;
    return rc;
}

static void registerVFS(void) {
    sqlite3_vfs *real = sqlite3_vfs_find(NULL);
    if (real == NULL) return;
    gatheringMethods = (sqlite3_io_methods){
        .iVersion = 3,
        .xClose = gatheringClose,
        .xRead = gatheringRead,
        .xWrite = gatheringWrite,
        .xTruncate = gatheringTruncate,
        .xSync = gatheringSync,
        .xFileSize = gatheringFileSize,
        .xLock = gatheringLock,
        .xUnlock = gatheringUnlock,
        .xCheckReservedLock = gatheringCheckReservedLock,
        .xFileControl = gatheringFileControl,
        .xSectorSize = gatheringSectorSize,
        .xDeviceCharacteristics = gatheringDeviceCharacteristics,
        .xShmMap = gatheringShmMap,
        .xShmLock = gatheringShmLock,
        .xShmBarrier = gatheringShmBarrier,
        .xShmUnmap = gatheringShmUnmap,
        .xFetch = gatheringFetch,
        .xUnfetch = gatheringUnfetch,
    };
    // Everything but opening is the default VFS's (none of those use pAppData).
    gatheringVFS = *real;
    gatheringVFS.pNext = NULL;
    gatheringVFS.zName = CHIRP_WAL_BUFFER_VFS;
    gatheringVFS.pAppData = real;
    gatheringVFS.szOsFile = ROUND8(sizeof(GatheringFile)) + real->szOsFile;
    gatheringVFS.xOpen = gatheringOpen;
    registrationResult = sqlite3_vfs_register(&gatheringVFS, 0);
}

int chirp_wal_buffer_register(void) {
    pthread_once(&registration, registerVFS);
    return registrationResult;
}

int chirp_wal_buffer_uri_filenames(void) {
    return sqlite3_compileoption_used("USE_URI") ? 1 : 0;
}

int chirp_wal_buffer_counts(sqlite3 *db, long long *requested, long long *performed) {
    sqlite3_file *log = NULL;
    if (sqlite3_file_control(db, "main", SQLITE_FCNTL_JOURNAL_POINTER, &log) != SQLITE_OK || log == NULL
        || log->pMethods != &gatheringMethods) {
        return 0;
    }
    GatheringFile *f = (GatheringFile *)log;
    *requested = f->requestedWrites;
    *performed = f->performedWrites;
    return 1;
}
