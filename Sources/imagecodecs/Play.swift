import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ImageCodecs
import CMalloc

/// `imagecodecs play FILE [--budget-mb N] [--speed X] [--loops N]`: plays the file on an
/// `AnimationPlayer` in real time × speed, printing "TIME_MS INDEX" whenever a frame goes up,
/// then "shown N dropped D peak-buffer BYTES".
struct Play: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play an animation in real time on AnimationPlayer.",
        discussion: """
            Prints "TIME_MS INDEX" each time a frame goes up (TIME_MS: wall-clock milliseconds \
            since playback started), then "shown N dropped D peak-buffer BYTES". Plays the file's \
            loop count; a file that loops forever plays once unless --loops says otherwise. \
            A still image plays as one frame.
            """
    )

    @Argument(help: "The image file.") var file: String
    @Option(name: .customLong("budget-mb"),
            help: "Frame buffer budget in MiB; 0 buffers nothing beyond the frame due.") var budgetMB = 64
    @Option(help: "Playback speed: 4 plays four times faster.") var speed = 1.0
    @Option(help: "Times to play, at least 1 (default: the file's loop count; once if it loops forever).")
    var loops: Int?

    func validate() throws {
        guard budgetMB >= 0, budgetMB <= 1 << 40 else { throw ValidationError("--budget-mb must be between 0 and 2^40") }
        guard speed > 0, speed <= 1e6 else { throw ValidationError("--speed must be positive, at most 10^6") }
        if let loops, loops < 1 { throw ValidationError("--loops must be positive") }
    }

    func run() throws {
        mapLargeAllocations()
        let source = ImageSource(bytes: try readFile(file))
        try requireRecognised(source)
        let player = AnimationPlayer(source: source, bufferBudget: budgetMB << 20,
                                     loops: loops ?? max(1, source.properties?.loopCount ?? 1))
        let clock = ContinuousClock()
        let start = clock.now
        var framesShown = 0
        while true {
            let wall = clock.now - start
            if let frame = player.frame(at: wall * speed), player.framesShown != framesShown {
                framesShown = player.framesShown
                let (seconds, attoseconds) = wall.components
                print("\(seconds * 1000 + attoseconds / 1_000_000_000_000_000) \(frame.index)")
            }
            if player.isFinished { break }
            usleep(1000)
        }
        print("shown \(player.framesShown) dropped \(player.framesDropped) peak-buffer \(player.peakBufferBytes)")
        try finish(source)
    }
}

/// Makes glibc's malloc map every allocation of 128 KiB or more on its own, as it does until
/// the first such block is freed.
///
/// Without it, glibc raises its mmap threshold past the frame size once a frame is freed, and
/// from then on frames come from the per-thread arenas of the threads the background task runs
/// on, where evicted frames stay resident: up to a few frames' worth of memory beyond what is live.
private func mapLargeAllocations() {
    _ = cmalloc_map_allocations_from(128 << 10)
}
