import Foundation
@testable import ImageCodecs
import TestSupport
import Testing

/// AnimationPlayer's contract: the schedule and loops, the byte budget, drops, playing while
/// downloading, skipping frames that fail, release, and never waiting on a decode.
///
/// Times are chosen, never measured: `frame(at:)` is driven with elapsed values in the middle
/// of frames, and the decoding thread is awaited by polling with a bounded loop.
@Suite(.serialized) struct AnimationPlayerTests {
    static let mixed = "apng/pil-mixed-40x40.png"
    /// A budget that holds every frame of the fixtures.
    static let large = 1 << 30

    static func fixture(_ name: String) throws -> [UInt8] {
        try Corpus.bytes(Corpus.conformance.appendingPathComponent("fixtures/\(name)"))
    }

    /// Polls `condition` every millisecond for up to a minute (a loaded CI machine can be slow);
    /// returns its last value.
    static func eventually(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<60_000 {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return condition()
    }

    /// Each frame's browser-clamped duration in microseconds, as the source gives it.
    static func durations(_ source: ImageSource) -> [Int] {
        (0..<source.count).map { Int(((source.properties(at: $0)?.duration ?? 0) * 1e6).rounded()) }
    }

    /// The middle of every frame of the first `loops` loops: (time in µs, frame index).
    static func midpoints(_ durations: [Int], loops: Int) -> [(time: Int, index: Int)] {
        var start = 0
        var result: [(Int, Int)] = []
        for _ in 0..<loops {
            for (index, duration) in durations.enumerated() {
                result.append((start + duration / 2, index))
                start += duration
            }
        }
        return result
    }

    /// Shows frame 0 at time 0 once the decoding thread has buffered `frames` frames.
    static func start(_ player: AnimationPlayer, buffered frames: Int) async -> Bool {
        await eventually { player.bufferedFrames.count >= frames } && player.frame(at: .zero)?.index == 0
    }

    @Test(arguments: ["gif/im-anim-global-20x12.gif", "gif/im-delays-0-1-20-noloop-16x10.gif",
                      "gif/gs-loop5-12x8.gif", mixed])
    func scheduleFollowsDurationsAndLoopCount(_ name: String) async throws {
        let source = ImageSource(bytes: try Self.fixture(name))
        let durations = Self.durations(source)
        let loopCount = try #require(source.properties?.loopCount)
        let player = AnimationPlayer(source: source, bufferBudget: Self.large)
        #expect(await Self.start(player, buffered: durations.count))
        let loopsPlayed = loopCount == 0 ? 3 : loopCount
        for (time, index) in Self.midpoints(durations, loops: loopsPlayed) {
            #expect(player.frame(at: .microseconds(time))?.index == index, "\(name) at \(time) µs")
        }
        let afterwards = Duration.microseconds(durations.reduce(0, +) * (loopsPlayed + 2))
        if loopCount == 0 {
            #expect(player.frame(at: afterwards) != nil && !player.isFinished)
            let farAhead = durations.reduce(0, +) * 1_000_000 + durations[0] + durations[1] / 2
            #expect(player.frame(at: .microseconds(farAhead))?.index == 1, "a million loops later")
        } else {
            #expect(player.frame(at: afterwards)?.index == durations.count - 1)
            #expect(player.frame(at: afterwards * 10)?.index == durations.count - 1)
            #expect(player.isFinished)
            #expect(player.framesDropped == 0 && player.framesShown == durations.count * loopCount)
        }
    }

    @Test func imagesEqualTheSourceImages() async throws {
        let bytes = try Self.fixture(Self.mixed)
        let reference = ImageSource(bytes: bytes)
        let durations = Self.durations(reference)
        let player = AnimationPlayer(source: ImageSource(bytes: bytes), bufferBudget: Self.large)
        #expect(await Self.start(player, buffered: durations.count))
        for (time, index) in Self.midpoints(durations, loops: 2) {
            let frame = try #require(player.frame(at: .microseconds(time)))
            #expect(frame.index == index)
            #expect(frame.image == (try reference.image(at: index)), "frame \(index)")
        }
    }

    @Test func loopsParameterOverridesTheFile() async throws {
        let source = ImageSource(bytes: try Self.fixture("gif/im-anim-global-20x12.gif"))
        #expect(source.properties?.loopCount == 0)
        let durations = Self.durations(source)
        let player = AnimationPlayer(source: source, bufferBudget: Self.large, loops: 2)
        #expect(await Self.start(player, buffered: durations.count))
        for (time, index) in Self.midpoints(durations, loops: 2) {
            #expect(player.frame(at: .microseconds(time))?.index == index)
        }
        #expect(player.isFinished && player.framesShown == 2 * durations.count)
        #expect(player.frame(at: .seconds(60))?.index == durations.count - 1)
    }

    /// Plays every frame of two loops from time 0, waiting at each for the decoding thread;
    /// returns whether every frame was shown and the most frames the buffer held.
    static func playSlowly(_ player: AnimationPlayer, _ durations: [Int]) async -> (allShown: Bool, mostBuffered: Int) {
        var mostBuffered = 0
        for (time, index) in [(0, 0)] + midpoints(durations, loops: 2).dropFirst() {
            let shown = await eventually {
                mostBuffered = max(mostBuffered, player.bufferedFrames.count)
                return player.frame(at: .microseconds(time))?.index == index
            }
            guard shown else { return (false, mostBuffered) }
        }
        return (true, mostBuffered)
    }

    @Test func bufferStaysWithinTheBudget() async throws {
        let source = ImageSource(bytes: try Self.fixture(Self.mixed))
        let canvas = try source.image(at: 0).pixels.count
        let budget = canvas * 5 / 2
        let durations = Self.durations(source)
        let player = AnimationPlayer(source: source, bufferBudget: budget)
        #expect(await Self.eventually { player.bufferedFrames.count == 2 }, "two canvases fit the budget")
        let played = await Self.playSlowly(player, durations)
        #expect(played.allShown && played.mostBuffered <= 2)
        #expect(player.peakBufferBytes == 2 * canvas)
        #expect(player.framesDropped == 0 && player.framesShown == 2 * durations.count)
    }

    /// Records the clock's sleeps: the player's decoding thread has none.
    final class SleepCounter: Sendable {
        let sleeps = Locked(0)
    }

    struct RecordingClock: Clock {
        let counter: SleepCounter
        var now: ContinuousClock.Instant { ContinuousClock.now }
        var minimumResolution: Duration { ContinuousClock().minimumResolution }
        func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
            counter.sleeps.withLock { $0 += 1 }
            try await ContinuousClock().sleep(until: deadline, tolerance: tolerance)
        }
    }

    /// A clock moved by hand.
    final class ManualClock: Clock, Sendable {
        let offset = Locked(Duration.zero)
        let origin = ContinuousClock.now
        var now: ContinuousClock.Instant { origin + offset.withLock { $0 } }
        var minimumResolution: Duration { .microseconds(1) }
        func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
            Issue.record("the player never sleeps on its clock")
        }
        func advance(to time: Duration) { offset.withLock { $0 = time } }
    }

    /// `currentFrame()` reads the time from the injected clock: it names the frame that
    /// `frame(at:)` names for the same time.
    @Test func currentFrameFollowsTheInjectedClock() async throws {
        let source = ImageSource(bytes: try Self.fixture(Self.mixed))
        let durations = Self.durations(source)
        let clock = ManualClock()
        let player = AnimationPlayer(source: source, bufferBudget: 1 << 30, clock: clock)
        #expect(await Self.eventually { player.currentFrame()?.index == 0 })
        // Every frame after the one on show is buffered before the clock moves, so what each
        // call shows depends on the clock alone, not on how far the decoding thread has got.
        #expect(await Self.eventually { Set(1..<durations.count).isSubset(of: player.bufferedFrames) })
        var start = 0
        for index in 1..<durations.count {
            start += durations[index - 1]
            clock.advance(to: .microseconds(start + durations[index] / 2))
            #expect(player.currentFrame()?.index == index)
        }
    }

    @Test(arguments: [0, 1000])
    func budgetBelowOneCanvasStillPlaysEveryFrame(_ budget: Int) async throws {
        let source = ImageSource(bytes: try Self.fixture(Self.mixed))
        #expect(try source.image(at: 0).pixels.count > budget)
        let durations = Self.durations(source)
        let counter = SleepCounter()
        let player = AnimationPlayer(source: source, bufferBudget: budget, clock: RecordingClock(counter: counter))
        let played = await Self.playSlowly(player, durations)
        #expect(played.allShown && played.mostBuffered <= 1)
        #expect(player.framesDropped == 0 && player.framesShown == 2 * durations.count)
        #expect(counter.sleeps.withLock { $0 } == 0)
    }

    @Test func jumpingAheadDropsTheFramesPassedOver() async throws {
        let source = ImageSource(bytes: try Self.fixture(Self.mixed))
        let durations = Self.durations(source)
        let n = durations.count
        let loopCount = try #require(source.properties?.loopCount)
        #expect(loopCount > 3 && n > 4)
        let player = AnimationPlayer(source: source, bufferBudget: 0)
        #expect(await Self.start(player, buffered: 1))
        let schedule = Self.midpoints(durations, loops: loopCount)
        // Position p is frame p % n of loop p / n; jumping from position a to b drops b - a - 1.
        var dropped = 0
        for (from, to) in [(0, 4), (4, 3 * n + 2), (3 * n + 2, loopCount * n - 1)] {
            let jumped = player.frame(at: .microseconds(schedule[to].time))
            #expect(jumped?.index == schedule[from].index, "the frame due is not decoded yet: the last one stays")
            dropped += to - from - 1
            #expect(player.framesDropped == dropped)
            #expect(await Self.eventually { player.frame(at: .microseconds(schedule[to].time))?.index == schedule[to].index })
        }
        #expect(player.isFinished)
        #expect(player.frame(at: .seconds(3600))?.index == n - 1 && player.framesDropped == dropped)
        #expect(player.framesShown == 4)
    }

    /// The shortest prefix of `bytes` with frame `index` complete, for each frame.
    static func arrivalCuts(_ bytes: [UInt8], frames: Int) -> [Int] {
        (0..<frames).map { index in
            var low = 1, high = bytes.count
            while low < high {
                let mid = (low + high) / 2
                let source = ImageSource(incremental: .init())
                source.append(bytes[0..<mid], final: false)
                if source.status(at: index) == .complete { high = mid } else { low = mid + 1 }
            }
            return low
        }
    }

    @Test func downloadingSourcePausesWhileTheNextFrameIsMissing() async throws {
        let bytes = try Self.fixture(Self.mixed)
        let durations = Self.durations(ImageSource(bytes: bytes))
        let cuts = Self.arrivalCuts(bytes, frames: 2)
        let source = ImageSource(incremental: .init())
        source.append(bytes[0..<cuts[0]], final: false)
        let player = AnimationPlayer(source: source, bufferBudget: Self.large)
        #expect(await Self.eventually { player.frame(at: .zero)?.index == 0 })

        let later = Duration.seconds(10)
        #expect(player.frame(at: later)?.index == 0 && player.framesDropped == 0 && !player.isFinished)

        source.append(bytes[cuts[0]..<cuts[1]], final: false)
        #expect(await Self.eventually { player.frame(at: later)?.index == 1 }, "frame 1 goes up as it arrives")
        let oneLasts = Duration.microseconds(durations[1])
        #expect(player.frame(at: later + oneLasts / 2)?.index == 1)
        #expect(player.frame(at: later + oneLasts * 3)?.index == 1, "paused on frame 1")

        source.append(bytes[cuts[1]...], final: true)
        let resumed = later * 2
        #expect(await Self.eventually { player.frame(at: resumed)?.index == 2 })
        let third = resumed + .microseconds(durations[2] + durations[3] / 2)
        #expect(await Self.eventually { player.frame(at: third)?.index == 3 })
        #expect(player.framesDropped == 0 && player.framesShown == 4)
    }

    /// A decoder that blocks in `image(at:)` until its gate opens, or throws for chosen frames.
    final class Gate: Sendable {
        private let state: Locked<(isOpen: Bool, inside: Int)>
        init(open: Bool) { state = Locked((open, 0)) }
        var isInside: Bool { state.withLock { $0.inside > 0 } }
        func open() { state.withLock { $0.isOpen = true } }

        /// Waits until the gate opens, however long that takes: a timeout here let a decode
        /// through before a test on a loaded machine had looked. Every test that closes a gate
        /// opens it in a `defer`, so a failing test cannot leave a decode waiting.
        func pass() {
            state.withLock { $0.inside += 1 }
            while !state.withLock({ $0.isOpen }) {
                Thread.sleep(forTimeInterval: 0.001)
            }
            state.withLock { $0.inside -= 1 }
        }
    }

    struct WrappingCoder: ImageCoder {
        let gate: Gate
        let failing: Set<Int>
        var format: ImageFormat { .png }
        func sniff(_ prefix: UnsafeBufferPointer<UInt8>) -> SniffResult { PNGCoder().sniff(prefix) }
        func makeDecoder(options: DecodingOptions) -> any ImageDecoding {
            WrappingDecoder(PNGCoder().makeDecoder(options: options), gate: gate, failing: failing)
        }
    }

    final class WrappingDecoder: ImageDecoding {
        let inner: any ImageDecoding
        let gate: Gate
        let failing: Set<Int>
        init(_ inner: any ImageDecoding, gate: Gate, failing: Set<Int>) {
            self.inner = inner
            self.gate = gate
            self.failing = failing
        }
        func advance(_ input: InputBuffer) throws(DecodingError) { try inner.advance(input) }
        var error: DecodingError? { inner.error }
        var properties: ImageProperties? { inner.properties }
        var frameCount: Int { inner.frameCount }
        func frameProperties(at index: Int) -> FrameProperties? { inner.frameProperties(at: index) }
        func isFrameComplete(at index: Int) -> Bool { inner.isFrameComplete(at: index) }
        var isComplete: Bool { inner.isComplete }
        func rendered(at index: Int, input: InputBuffer) throws(DecodingError) -> RenderedImage {
            gate.pass()
            if failing.contains(index) { throw .invalidData("a frame the test makes fail") }
            return try inner.rendered(at: index, input: input)
        }
        func streamingThumbnail(at index: Int, width: Int, height: Int,
                                input: InputBuffer) throws(DecodingError) -> RenderedImage? { nil }
    }

    static func source(_ bytes: [UInt8], gate: Gate = Gate(open: true), failing: Set<Int> = []) -> ImageSource {
        var registry = CoderRegistry.standard
        registry.register(WrappingCoder(gate: gate, failing: failing))
        return ImageSource(bytes: bytes, registry: registry)
    }

    @Test func frameAtAnswersWhileTheSourceIsBusyDecoding() async throws {
        let bytes = try Self.fixture(Self.mixed)
        let gate = Gate(open: false)
        defer { gate.open() }
        let player = AnimationPlayer(source: Self.source(bytes, gate: gate), bufferBudget: Self.large)
        #expect(await Self.eventually { gate.isInside }, "the decoding thread is decoding, holding the source's renderer")
        #expect(player.frame(at: .zero) == nil)
        #expect(player.frame(at: .seconds(5)) == nil)
        #expect(!player.isFinished && player.framesDropped == 0 && player.peakBufferBytes == 0)
        #expect(gate.isInside, "frame(at:) returned while the decode was still in progress")
        gate.open()
        #expect(await Self.eventually { player.frame(at: .seconds(5))?.index == 0 })
    }

    @Test func frameWhoseDecodeThrowsIsSkipped() async throws {
        let bytes = try Self.fixture(Self.mixed)
        let durations = Self.durations(ImageSource(bytes: bytes))
        let player = AnimationPlayer(source: Self.source(bytes, failing: [1]), bufferBudget: Self.large)
        #expect(await Self.eventually { player.bufferedFrames == [0] + Array(2..<durations.count) })
        let schedule = Self.midpoints(durations, loops: 1)
        #expect(player.frame(at: .zero)?.index == 0)
        #expect(player.frame(at: .microseconds(schedule[1].time))?.index == 0, "frame 0 stays over frame 1's time")
        #expect(player.framesDropped == 1)
        for (time, index) in schedule.dropFirst(2) {
            #expect(player.frame(at: .microseconds(time))?.index == index)
        }
        #expect(player.framesDropped == 1 && player.framesShown == durations.count - 1)
    }

    @Test(arguments: [[1, 2, 3, 4, 5, 6, 7, 8, 9],
                      [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
                       0, 0, 0, 0, 0, 0, 0, 0, 8, 6, 0, 0, 0, 0, 0, 0, 0] as [UInt8]])
    func sourceWithoutFramesEndsPlayback(_ bytes: [UInt8]) async throws {
        let source = ImageSource(bytes: bytes)
        #expect(source.count == 0 && [.unknownType, .invalidData].contains(source.status))
        let player = AnimationPlayer(source: source, bufferBudget: Self.large)
        #expect(await Self.eventually { player.isFinished })
        #expect(player.frame(at: .seconds(1)) == nil && player.framesShown == 0)
    }

    @Test func stillImagePlaysAsOneFrame() async throws {
        let source = ImageSource(bytes: try Self.fixture("png/rgb8-64x64.png"))
        let player = AnimationPlayer(source: source, bufferBudget: 0)
        #expect(await Self.eventually { player.frame(at: .zero)?.index == 0 })
        #expect(player.isFinished && player.framesShown == 1)
        #expect(player.frame(at: .seconds(100))?.image == (try source.image(at: 0)))
    }

    @Test func releasingThePlayerEndsItsBackgroundTask() async throws {
        let bytes = try Self.fixture(Self.mixed)
        let source = ImageSource(incremental: .init())
        source.append(bytes[0..<(bytes.count / 2)], final: false)
        weak var weakPlayer: AnimationPlayer?
        weak var weakCore: AnimationPlayer.Core?
        do {
            let player = AnimationPlayer(source: source, bufferBudget: Self.large)
            weakPlayer = player
            weakCore = player.core
            #expect(await Self.eventually { player.frame(at: .zero) != nil })
        }
        #expect(weakPlayer == nil, "the decoding thread does not retain the player")
        #expect(await Self.eventually { weakCore == nil }, "the stopped thread lets its state go")
        source.append(bytes[(bytes.count / 2)...], final: true)
        #expect(source.status == .complete)
    }
}

extension AnimationPlayer {
    /// The frames held in the buffer, in index order.
    var bufferedFrames: [Int] { core.state.withLock { $0.buffer.images.keys.sorted() } }
}
