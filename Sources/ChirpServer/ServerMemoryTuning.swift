/// glibc's allocator settings for a server process. With its defaults, memory freed at the top
/// of a thread's heap goes back to the kernel at once and large blocks are mapped and unmapped
/// per use, so a busy thread can spend its time in page faults and TLB shootdowns: under
/// `chirp bench` about one run in three ran at 5,600 sends/s instead of 8,000, with one dispatch
/// thread mostly faulting pages. Keeping freed memory (up to 256 MiB per heap) and mapping only
/// blocks of 8 MiB and more made the runs steady.
public enum ServerMemoryTuning {
    /// Applies the settings; call once, before the server starts. Does nothing off Linux.
    public static func apply() {
        #if os(Linux)
            // <malloc.h>'s parameters; Swift's Glibc module does not export mallopt.
            _ = chirp_mallopt(-3, 8 << 20)  // M_MMAP_THRESHOLD
            _ = chirp_mallopt(-1, 256 << 20)  // M_TRIM_THRESHOLD
            _ = chirp_mallopt(-2, 16 << 20)  // M_TOP_PAD
        #endif
    }
}

#if os(Linux)
    @_silgen_name("mallopt")
    private func chirp_mallopt(_ parameter: Int32, _ value: Int32) -> Int32
#endif
