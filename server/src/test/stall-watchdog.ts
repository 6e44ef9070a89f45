import { execFileSync } from "node:child_process";
import type { Reporter, TestModule, Vitest } from "vitest/node";

/**
 * The run's only time limit. Tests and hooks have none (a fixed one failed whole files on a busy
 * machine, where a migration took a minute); instead the run ends, failed, when nothing at all has
 * happened for CHARLA_TEST_STALL_MINUTES (10): no hook ended, no test finished, no file started.
 * A slow machine slows every step and still makes progress; only a hang stops it. The files still
 * open are named, so the hung one is found.
 */
export default class StallWatchdog implements Reporter {
  private vitest: Vitest | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly open = new Set<string>();
  private readonly limitMs = Number(process.env.CHARLA_TEST_STALL_MINUTES || 10) * 60_000;

  onInit(vitest: Vitest) {
    this.vitest = vitest;
  }

  onTestRunStart() {
    this.progress();
  }

  onTestModuleStart(module: TestModule) {
    this.open.add(module.relativeModuleId);
    this.progress();
  }

  onTestModuleEnd(module: TestModule) {
    this.open.delete(module.relativeModuleId);
    this.progress();
  }

  onHookEnd() {
    this.progress();
  }

  onTestCaseResult() {
    this.progress();
  }

  onTestRunEnd() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private progress() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.stalled(), this.limitMs);
    this.timer.unref();
  }

  private stalled() {
    const files = [...this.open].join(", ") || "none";
    console.error(`\nNo test or hook finished for ${this.limitMs / 60_000} min: the run is hung. Files still open: ${files}`);
    process.exitCode = 1;
    // Vitest's close waits on the hung worker and then exits without it, leaving it running: end the
    // workers (this process's children) first
    for (const pid of children()) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {}
    }
    void this.vitest?.exit(true);
  }
}

function children(): number[] {
  try {
    return execFileSync("pgrep", ["-P", String(process.pid)], { encoding: "utf8" })
      .split("\n")
      .filter(Boolean)
      .map(Number);
  } catch {
    return []; // pgrep finds none (exit 1) or is missing
  }
}
