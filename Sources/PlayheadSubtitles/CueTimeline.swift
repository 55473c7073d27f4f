/// An index of cues by time that answers "which cues are active at time t" in O(log n + k) for k active cues
/// (then orders those k), and "when does the set of active cues next change" in O(log n), for files of any
/// length.
///
/// It is a centred interval tree laid out in flat arrays: each node holds the cues whose interval contains its
/// centre, once sorted by start and once by end, so a query walks one root-to-leaf path and stops scanning each
/// node's list at the first cue that is not active. A cue is active on `startTime ..< endTime`; cues whose end
/// is not after their start are never active.
///
/// A value type, safe to use from any thread.
public struct CueTimeline: Sendable, Hashable {
    /// The cues, in the order given.
    public let cues: [SubtitleCue]

    private struct Node: Sendable, Hashable {
        var center: Double
        /// The node's cues in `byStart` and `byEnd`.
        var members: Range<Int>
        var left: Int32
        var right: Int32
    }

    private var nodes: [Node] = []
    /// Cue indices, node by node, each node's run sorted by ascending start time.
    private var byStart: [Int32] = []
    /// The same runs sorted by descending end time.
    private var byEnd: [Int32] = []
    /// Every distinct start and end time, ascending.
    private var boundaries: [Double] = []

    /// Indexes cues (in any order) by time.
    public init(cues: [SubtitleCue]) {
        self.cues = cues
        let valid = cues.indices.filter { cues[$0].endTime > cues[$0].startTime }.map { Int32($0) }
        nodes.reserveCapacity(valid.count)
        byStart.reserveCapacity(valid.count)
        byEnd.reserveCapacity(valid.count)
        _ = build(valid)
        var times = valid.flatMap { [cues[Int($0)].startTime, cues[Int($0)].endTime] }
        times.sort()
        boundaries = times.reduce(into: []) { unique, time in if unique.last != time { unique.append(time) } }
    }

    /// Indexes the cues of a document.
    public init(_ document: SubtitleDocument) { self.init(cues: document.cues) }

    /// Builds the subtree for `members` and returns its node index, or -1 when empty.
    private mutating func build(_ members: [Int32]) -> Int32 {
        guard !members.isEmpty else { return -1 }
        // The centre is the median start time: it keeps the tree balanced, and the cue that starts there contains
        // it (its end is after its start), so every node holds at least one cue and the recursion ends.
        var starts = members.map { cues[Int($0)].startTime }
        starts.sort()
        let center = starts[starts.count / 2]
        var left: [Int32] = []
        var right: [Int32] = []
        var here: [Int32] = []
        for index in members {
            let cue = cues[Int(index)]
            if cue.startTime > center {
                right.append(index)
            } else if cue.endTime <= center {
                left.append(index)
            } else {
                here.append(index)
            }
        }
        let nodeIndex = Int32(nodes.count)
        let runStart = byStart.count
        byStart += here.sorted { cues[Int($0)].startTime < cues[Int($1)].startTime }
        byEnd += here.sorted { cues[Int($0)].endTime > cues[Int($1)].endTime }
        nodes.append(Node(center: center, members: runStart..<byStart.count, left: -1, right: -1))
        let leftChild = build(left)
        let rightChild = build(right)
        nodes[Int(nodeIndex)].left = leftChild
        nodes[Int(nodeIndex)].right = rightChild
        return nodeIndex
    }

    /// The indices (into `cues`) of the cues active at `time`, in ascending order.
    public func activeCueIndices(at time: Double) -> [Int] {
        var result: [Int] = []
        var nodeIndex: Int32 = nodes.isEmpty ? -1 : 0
        while nodeIndex >= 0 {
            let node = nodes[Int(nodeIndex)]
            if time < node.center {
                // Every member ends after the centre, so after `time`: active when it has started.
                for member in node.members {
                    let index = Int(byStart[member])
                    guard cues[index].startTime <= time else { break }
                    result.append(index)
                }
                nodeIndex = node.left
            } else {
                // Every member starts at or before the centre, so by `time`: active when it has not ended.
                for member in node.members {
                    let index = Int(byEnd[member])
                    guard cues[index].endTime > time else { break }
                    result.append(index)
                }
                nodeIndex = node.right
            }
        }
        result.sort()
        return result
    }

    /// The cues active at `time`, in the order given at creation.
    public func activeCues(at time: Double) -> [SubtitleCue] {
        activeCueIndices(at: time).map { cues[$0] }
    }

    /// The first time after `time` at which a cue starts or ends, or `nil` when nothing changes any more: the moment
    /// a renderer has to look again.
    public func nextChange(after time: Double) -> Double? {
        var low = 0
        var high = boundaries.count
        while low < high {
            let middle = (low + high) / 2
            if boundaries[middle] <= time { low = middle + 1 } else { high = middle }
        }
        return low < boundaries.count ? boundaries[low] : nil
    }
}
