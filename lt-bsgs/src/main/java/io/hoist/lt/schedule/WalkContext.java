package io.hoist.lt.schedule;

import io.hoist.lt.plan.LimbLayout;
import io.hoist.lt.plan.LtProgram;
import io.hoist.lt.plan.Storage;
import java.util.ArrayList;
import java.util.List;

/**
 * The state of one six-phase walk and its tracked objects: the program's buffers, keys, diagonals,
 * twiddle tables and on-chip scratch, as {@link WorkingSet} entries, with the load/produce/evict/drop
 * helpers every phase uses. The phases themselves are in {@link InputPhases} and {@link OutputPhases}.
 */
abstract class WalkContext {

    final LtProgram prog;
    final Storage storage;
    final Grouping g;
    final WorkingSet ws;
    PhaseHooks hooks; // the compute of the current phase (no-op in the dry walk)
    final LimbLayout lay;
    final int lq, d, beta, level;
    final long lb;

    WalkContext(LtProgram prog, Storage storage, Grouping g, long budget, PhaseHooks hooks) {
        this.prog = prog;
        this.storage = storage;
        this.g = g;
        this.ws = new WorkingSet(budget);
        this.hooks = hooks;
        this.lay = prog.layout();
        this.lq = lay.lq();
        this.d = lay.d();
        this.beta = lay.beta();
        this.level = lay.level();
        this.lb = lay.limbBytes();
    }

    // ---------------------------------------------------------------- tracked objects

    WorkingSet.Obj buf(int id, int poly) {
        LtProgram.Buffer b = prog.buffer(id);
        LedgerKind k = b.digits() ? LedgerKind.DIGITS : LedgerKind.CIPHERTEXT;
        return ws.obj(WorkingSet.key(WorkingSet.BUF, id, poly), k, lb, d);
    }

    WorkingSet.Obj key(int rotation, int part, int t) {
        return ws.obj(WorkingSet.key(WorkingSet.KEY, rotation, part * beta + t), LedgerKind.KEYS, lb, d);
    }

    WorkingSet.Obj diag(int r) {
        return storage == Storage.COMPACT
                ? ws.obj(WorkingSet.key(WorkingSet.DIAG, r, 0), LedgerKind.DIAGONALS, lay.compactBytes(), 1)
                : ws.obj(WorkingSet.key(WorkingSet.DIAG, r, 0), LedgerKind.DIAGONALS, lb, d);
    }

    WorkingSet.Obj twf() {
        return ws.obj(WorkingSet.key(WorkingSet.TWF, 0, 0), LedgerKind.TWIDDLES, lb, d);
    }

    WorkingSet.Obj twi() {
        return ws.obj(WorkingSet.key(WorkingSet.TWI, 0, 0), LedgerKind.TWIDDLES, lb, d);
    }

    /** A fresh on-chip-only object of {@code limbs} limbs (never read or written off chip). */
    WorkingSet.Obj scratch(int limbs) {
        return ws.scratch(LedgerKind.CIPHERTEXT, lb, limbs);
    }

    /** End of buffer {@code id}'s Q limbs if it is Q-only, else D. */
    int end(int id) {
        return prog.limbs(id);
    }

    void loadBuf(int id, int from, int to) {
        int e = Math.min(to, end(id));
        if (from < e) ws.load(buf(id, 0), from, e);
    }

    void loadDigits(int id, int from, int to) {
        for (int t = 0; t < beta; t++) ws.load(buf(id, t), from, to);
    }

    void produceDigits(int id, int from, int to) {
        for (int t = 0; t < beta; t++) ws.produce(buf(id, t), from, to);
    }

    void evictDigits(int id, int from, int to) {
        for (int t = 0; t < beta; t++) ws.evict(buf(id, t), from, to);
    }

    void dropDigits(int id, int from, int to) {
        for (int t = 0; t < beta; t++) ws.drop(buf(id, t), from, to);
    }

    void loadKey(int rotation, int from, int to) {
        for (int part = 0; part < 2; part++) for (int t = 0; t < beta; t++) ws.load(key(rotation, part, t), from, to);
    }

    void dropKey(int rotation, int from, int to) {
        for (int part = 0; part < 2; part++) for (int t = 0; t < beta; t++) ws.drop(key(rotation, part, t), from, to);
    }

    static <T> List<List<T>> groups(List<T> items, int size) {
        List<List<T>> out = new ArrayList<>();
        for (int i = 0; i < items.size(); i += size) out.add(items.subList(i, Math.min(items.size(), i + size)));
        return out;
    }

    List<int[]> limbGroups(int l) {
        List<int[]> out = new ArrayList<>();
        for (int j = 0; j < d; j += l) out.add(new int[] {j, Math.min(d, j + l)});
        return out;
    }

    void release(int id) {
        hooks.release(id);
    }

    static List<LtProgram.Step> of(List<LtProgram.Step> steps, LtProgram.Kind k) {
        return steps.stream().filter(s -> s.kind() == k).toList();
    }

    /** Releases the buffers a phase read for the last time. */
    void releaseAfterPhase(LtProgram.Step s, int phase) {
        for (int i = 0; i < s.in().length(); i++) {
            int id = s.in().get(i);
            if (id >= 0 && lastPhase(id) == phase) hooks.release(id);
        }
    }

    int lastPhase(int id) {
        return prog.steps().get(prog.lastUse(id)).phase();
    }
}
