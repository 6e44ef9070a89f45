import { useCallback, useState } from "react";
import { readItem, StorageKeys, writeItem } from "../../lib/storage";

/** secondary §2 To-do list: tasks live only in this browser. */
export type Task = { text: string; createdAt: string; updatedAt: string };

function isTask(value: unknown): value is Task {
  const task = value as Task;
  return typeof task?.text === "string" && typeof task.createdAt === "string" && typeof task.updatedAt === "string";
}

function loadTasks(): Task[] {
  try {
    const parsed: unknown = JSON.parse(readItem(StorageKeys.tasks) ?? "[]");
    return Array.isArray(parsed) ? parsed.filter(isTask) : [];
  } catch {
    return [];
  }
}

export function useTasks() {
  const [tasks, setTasks] = useState<Task[]>(loadTasks);

  const commit = useCallback((update: (current: Task[]) => Task[]) => {
    setTasks((current) => {
      const next = update(current);
      writeItem(StorageKeys.tasks, JSON.stringify(next));
      return next;
    });
  }, []);

  /** Whitespace-only text is not a task; returns whether anything was saved. */
  const addTask = useCallback(
    (text: string): boolean => {
      const clean = text.trim();
      if (!clean) return false;
      const now = new Date().toISOString();
      commit((current) => [...current, { text: clean, createdAt: now, updatedAt: now }]);
      return true;
    },
    [commit],
  );

  const editTask = useCallback(
    (index: number, text: string): boolean => {
      const clean = text.trim();
      if (!clean) return false;
      const now = new Date().toISOString();
      commit((current) => current.map((task, i) => (i === index ? { ...task, text: clean, updatedAt: now } : task)));
      return true;
    },
    [commit],
  );

  const deleteTask = useCallback((index: number) => commit((current) => current.filter((_, i) => i !== index)), [commit]);

  return { tasks, addTask, editTask, deleteTask };
}
