/*
 * sonde_freertos.h -- Sonde tracing of the FreeRTOS kernel: its trace
 * macros mapped onto Sonde's records (sonde.h, sonde_rtos.h).
 *
 * One include, at the END of FreeRTOSConfig.h:
 *
 *     #include "sonde_freertos.h"
 *
 * and sonde_freertos.c compiled with the kernel (docs/freertos.md).  Every
 * macro the kernel offers for tasks, queues, semaphores, mutexes, task
 * notifications, software timers, event groups and stream buffers is
 * defined here unless FreeRTOSConfig.h defined it first.  To add your own
 * code to a hook, define the kernel's macro yourself and call Sonde's from
 * it, e.g.
 *
 *     #define traceTASK_SWITCHED_IN() do { my_hook(); SONDE_FRTOS_TASK_SWITCHED_IN(); } while (0)
 *
 * What reaches the wire (docs/protocol.md section 4.1, docs/freertos.md):
 * one TASK_SWITCH per context switch, carrying the state the outgoing task
 * leaves in (preempted, delayed, waiting to receive from queue q, to take
 * mutex m, for a notification, ..., suspended, deleted); TASK_READY when a
 * task becomes ready; OBJ_CREATE and names (DICT) for every task, queue,
 * semaphore, mutex, timer, event group and stream buffer; OBJ_OP for every
 * send, receive, peek, give and take with the fill level, notifications,
 * priority changes (set, inherit, disinherit), resumption, timer expiry
 * and commands, event bits and stream buffer transfers; a queue set's
 * signal by a member (OBJ_OP SET_SEND), deferred calls (PEND_CALL),
 * creations that failed (CREATE_FAILED) and, with SONDE_FRTOS_API 1,
 * V11's API calls as spans (API, sonde_freertos_api.h).
 * Also tickless idle's sleeps and, optionally (off by default:
 * SONDE_FRTOS_HEAP, SONDE_FRTOS_STACK), the heap's allocations and frees and
 * the tasks' stack high-water marks.
 *
 * Ids.  Every traced object gets a Sonde object id (1..255, shared with the
 * application's ISRs, markers and counters) when it is created, stored in
 * the kernel's own trace number of the object (vTaskSetTaskNumber(),
 * vQueueSetQueueNumber(), ...; configUSE_TRACE_FACILITY), so each hook
 * finds it with one call of the kernel's public API.  Ids are handed out
 * from SONDE_FRTOS_ID_FIRST up and reused after deletion; an object beyond
 * SONDE_FRTOS_MAX_OBJECTS live ones gets id 0 (counted:
 * sonde_frtos_untracked()).
 *
 * Interrupts are the application's to trace (sonde_isr_enter() and
 * sonde_isr_exit() in each handler, the kernel's tick handler included):
 * the kernel's traceISR_* macros do not pair up (see below).
 *
 * Only the kernel's public API and the macros' documented arguments are
 * used, with two exceptions the kernel's own documentation names:
 * pxCurrentTCB in traceTASK_SWITCHED_IN (the task selected to run), and
 * xTaskToNotify, the task-handle parameter of the notify functions the
 * notify macros are expanded in (and their parameters eAction and ulValue
 * and result xReturn: what the notification does), and pxQueue, the member
 * parameter of prvNotifyQueueSetContainer() where traceQUEUE_SET_SEND is
 * expanded.  Single-core kernels only
 * (configNUMBER_OF_CORES 1); FreeRTOS-Kernel 10.4 to 11.x.
 */
#ifndef SONDE_FREERTOS_H
#define SONDE_FREERTOS_H

/* FreeRTOSConfig.h may be read by assembler files of some ports. */
#if !defined(__ASSEMBLER__) && !defined(__IAR_SYSTEMS_ASM__)

#include <stdint.h>

#include "sonde.h"
#include "sonde_frtos_api.h"
#include "sonde_rtos.h"

/* ---- configuration ------------------------------------------------------ */

/* The first object id given to a kernel object, and how many objects can be
 * traced at once (ids SONDE_FRTOS_ID_FIRST .. + SONDE_FRTOS_MAX_OBJECTS - 1).
 * Keep the application's own ids (ISRs, markers, counters) below the first.
 * RAM: 2 pointers, 4 bytes and a byte per object (16 bytes on 32 bits). */
#ifndef SONDE_FRTOS_ID_FIRST
#define SONDE_FRTOS_ID_FIRST 32u
#endif
#ifndef SONDE_FRTOS_MAX_OBJECTS
#define SONDE_FRTOS_MAX_OBJECTS 64u
#endif
/* 1: V11's API entry and exit hooks as API records, a span per call of the
 * functions of sonde_frtos_api.h with the value returned (off by default:
 * 0 defines none of those hooks, and costs nothing). */
#ifndef SONDE_FRTOS_API
#define SONDE_FRTOS_API 0
#endif
/* The heap: 1 traces the kernel's allocator (traceMALLOC, traceFREE: a
 * HEAP_ALLOC or HEAP_FREE record each, 13 bytes framed).  0 (the default):
 * the kernel's empty macros stay, nothing is compiled in. */
#ifndef SONDE_FRTOS_HEAP
#define SONDE_FRTOS_HEAP 0
#endif
/* Stack high-water marks: 1 marks each task switched out (only while it
 * runs can its stack grow: one store in the switch), and
 * sonde_frtos_stack_poll(), which the application calls from its idle hook,
 * looks at the stacks of the tasks marked -- uxTaskGetStackHighWaterMark(),
 * a scan of the stack's unused part, off the switch, with the scheduler
 * suspended and interrupts enabled -- at most once every
 * SONDE_FRTOS_STACK_PERIOD ticks (0: at every call), and sends OBJ_OP
 * STACK_FREE for each whose mark fell.  RAM: 8 more bytes per object.  0
 * (the default): nothing compiled in, the poll does nothing. */
#ifndef SONDE_FRTOS_STACK
#define SONDE_FRTOS_STACK 0
#endif
#ifndef SONDE_FRTOS_STACK_PERIOD
#define SONDE_FRTOS_STACK_PERIOD 100u
#endif
#if SONDE_FRTOS_ID_FIRST < 1 || SONDE_FRTOS_ID_FIRST + SONDE_FRTOS_MAX_OBJECTS > 256
#error "SONDE_FRTOS_ID_FIRST and SONDE_FRTOS_MAX_OBJECTS must keep the ids within 1..255"
#endif

/* ---- what the kernel must offer ----------------------------------------- */

#if !defined(configUSE_TRACE_FACILITY) || configUSE_TRACE_FACILITY != 1
#error "sonde_freertos.h needs configUSE_TRACE_FACILITY 1 (the objects' trace numbers)"
#endif
#if defined(configNUMBER_OF_CORES) && configNUMBER_OF_CORES > 1
#error "sonde_freertos.h supports single-core FreeRTOS only"
#endif
/* The idle and timer service tasks are told apart by their handles. */
#ifndef INCLUDE_xTaskGetIdleTaskHandle
#define INCLUDE_xTaskGetIdleTaskHandle 1
#endif
#ifndef INCLUDE_xTimerGetTimerDaemonTaskHandle
#define INCLUDE_xTimerGetTimerDaemonTaskHandle 1
#endif
#ifndef INCLUDE_uxTaskPriorityGet
#define INCLUDE_uxTaskPriorityGet 1
#endif
#if SONDE_FRTOS_STACK && !defined(INCLUDE_uxTaskGetStackHighWaterMark)
#define INCLUDE_uxTaskGetStackHighWaterMark 1
#endif
#if SONDE_FRTOS_STACK && INCLUDE_uxTaskGetStackHighWaterMark != 1
#error "SONDE_FRTOS_STACK needs INCLUDE_uxTaskGetStackHighWaterMark 1"
#endif
#if INCLUDE_xTaskGetIdleTaskHandle != 1 || INCLUDE_uxTaskPriorityGet != 1
#error "sonde_freertos.h needs INCLUDE_xTaskGetIdleTaskHandle and INCLUDE_uxTaskPriorityGet 1"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the application's calls -------------------------------------------- */

#if SONDE_ENABLED

/* Call once after sonde_init() (before or after creating objects, before or
 * after starting the scheduler): announces every object that exists, and
 * installs the dictionary callback that announces them again when the host
 * asks for INFO; app_dict (may be NULL) is called after, for the
 * application's own names. */
void sonde_frtos_init(void (*app_dict)(void));

/* Announce every traced object (OBJ_CREATE with the announced flag, and its
 * name): what the INFO callback does. */
void sonde_frtos_announce(void);

/* Name an object the kernel has no name for (event groups, stream buffers,
 * semaphores not in the queue registry); handle is the object's handle.
 * The string must outlive the object: it is sent again on INFO. */
void sonde_frtos_name(const void *handle, const char *name);

/* The Sonde object id of a handle (task, queue, semaphore, mutex, timer,
 * event group, stream buffer), 0 if it is not traced. */
uint8_t sonde_frtos_id(const void *handle);

/* Objects that got id 0 because the table was full. */
uint32_t sonde_frtos_untracked(void);

#if SONDE_FRTOS_STACK
/* Look at the stacks of the tasks switched out since the last look, if
 * SONDE_FRTOS_STACK_PERIOD ticks have passed (see above).  Call it from a
 * task (the idle hook: it neither blocks nor masks interrupts). */
void sonde_frtos_stack_poll(void);
#else
static inline void sonde_frtos_stack_poll(void) {}
#endif

#else /* tracing compiled out: the kernel's empty default macros stay */

static inline void sonde_frtos_init(void (*app_dict)(void)) { (void)app_dict; }
static inline void sonde_frtos_announce(void) {}
static inline void sonde_frtos_name(const void *h, const char *n) { (void)h; (void)n; }
static inline uint8_t sonde_frtos_id(const void *h) { (void)h; return 0; }
static inline uint32_t sonde_frtos_untracked(void) { return 0; }
static inline void sonde_frtos_stack_poll(void) {}

#endif /* SONDE_ENABLED */

#if SONDE_ENABLED

/* ---- what the macros call (not for the application) --------------------- */

/* The running task as the hooks see it: its TCB, its id, and the state it
 * will leave in when it is switched out (SONDE_TASK_* | object << 8), set by
 * the blocking hooks and cleared when it runs on. */
struct sonde_frtos_run {
	const void *volatile tcb;
	volatile uint8_t id;
	volatile uint8_t cmdq; /* the timer task's command queue, while it arranges to wait on it */
	volatile uint16_t wait;
};
extern struct sonde_frtos_run sonde_frtos_run;

uint8_t sonde_frtos_created(const void *handle, uint8_t kind, uint32_t cap, const char *name);
void sonde_frtos_deleted(const void *handle, uint8_t id);
void sonde_frtos_named(uint8_t id, const char *name);
void sonde_frtos_switched_in(const void *tcb, uint8_t id);
void sonde_frtos_ready(const void *tcb, uint8_t id);
void sonde_frtos_leaves(const void *tcb, uint8_t id, uint8_t state);
void sonde_frtos_notify(uint8_t task, uint8_t flags, uint32_t action, uint32_t value, uint8_t index);
void sonde_frtos_timer_cmd(uint8_t timer, int32_t cmd, uint32_t value, int ok);
void sonde_frtos_set_send(uint8_t set, uint8_t member, uint32_t before);
void sonde_frtos_set_created(uint8_t set);
void sonde_frtos_pend(uint8_t flags, uintptr_t fn);
void sonde_frtos_api_ret(uint8_t api, uint32_t value);

/* A FreeRTOS queue type (ucQueueGetQueueType()) as an object kind. */
#define SONDE_FRTOS_QKIND(t)                                                   \
	((t) == 1u ? SONDE_OBJK_MUTEX : (t) == 2u ? SONDE_OBJK_COUNTING_SEM :      \
	 (t) == 3u ? SONDE_OBJK_BINARY_SEM : (t) == 4u ? SONDE_OBJK_RECURSIVE_MUTEX : \
	 SONDE_OBJK_QUEUE)

/* A fill level in the 16 bits of OBJ_OP (saturating). */
static inline uint16_t sonde_frtos_u16(uint32_t n)
{
	return n > 0xFFFFu ? (uint16_t)0xFFFFu : (uint16_t)n;
}

/* The running task will wait for state (SONDE_TASK_*) on obj. */
#define SONDE_FRTOS_WAIT(state, obj) \
	(sonde_frtos_run.wait = (uint16_t)((uint32_t)(state) | (uint32_t)(uint8_t)(obj) << 8))

/* ---- tasks (expanded in tasks.c) ----------------------------------------- */

#define SONDE_FRTOS_TASK_CREATE(pxNewTCB)                                                  \
	vTaskSetTaskNumber((pxNewTCB), sonde_frtos_created((pxNewTCB), SONDE_OBJK_TASK,      \
							   (uint32_t)uxTaskPriorityGet(pxNewTCB), \
							   pcTaskGetName(pxNewTCB)))
#define SONDE_FRTOS_TASK_DELETE(pxTCB)                                                     \
	do {                                                                               \
		sonde_frtos_leaves((pxTCB), (uint8_t)uxTaskGetTaskNumber(pxTCB), SONDE_TASK_DELETED); \
		sonde_frtos_deleted((pxTCB), (uint8_t)uxTaskGetTaskNumber(pxTCB));         \
	} while (0)
#define SONDE_FRTOS_TASK_SUSPEND(pxTCB) \
	sonde_frtos_leaves((pxTCB), (uint8_t)uxTaskGetTaskNumber(pxTCB), SONDE_TASK_SUSPENDED)
#define SONDE_FRTOS_TASK_RESUME(pxTCB) \
	sonde_obj_op(SONDE_OP_RESUME, (uint8_t)uxTaskGetTaskNumber(pxTCB))
#define SONDE_FRTOS_TASK_RESUME_FROM_ISR(pxTCB) \
	sonde_obj_op(SONDE_OP_RESUME | SONDE_OP_F_ISR, (uint8_t)uxTaskGetTaskNumber(pxTCB))
#define SONDE_FRTOS_TASK_DELAY() SONDE_FRTOS_WAIT(SONDE_TASK_DELAYED, 0u)
#define SONDE_FRTOS_TASK_DELAY_UNTIL(xTimeToWake) SONDE_FRTOS_WAIT(SONDE_TASK_DELAYED, 0u)
#define SONDE_FRTOS_TASK_PRIORITY_SET(pxTask, uxNewPriority) \
	sonde_obj_op8(SONDE_OP_PRIO_SET, (uint8_t)uxTaskGetTaskNumber(pxTask), (uint8_t)(uxNewPriority))
#define SONDE_FRTOS_TASK_PRIORITY_INHERIT(pxTCBOfMutexHolder, uxInheritedPriority)   \
	sonde_obj_op8(SONDE_OP_PRIO_INHERIT, (uint8_t)uxTaskGetTaskNumber(pxTCBOfMutexHolder), \
		      (uint8_t)(uxInheritedPriority))
#define SONDE_FRTOS_TASK_PRIORITY_DISINHERIT(pxTCBOfMutexHolder, uxOriginalPriority)   \
	sonde_obj_op8(SONDE_OP_PRIO_DISINHERIT, (uint8_t)uxTaskGetTaskNumber(pxTCBOfMutexHolder), \
		      (uint8_t)(uxOriginalPriority))
#define SONDE_FRTOS_MOVED_TASK_TO_READY_STATE(pxTCB) \
	sonde_frtos_ready((pxTCB), (uint8_t)uxTaskGetTaskNumber(pxTCB))
/* Nothing at switch-out: the switch-in names both tasks in one record (and
 * writes nothing when the same task runs on). */
#define SONDE_FRTOS_TASK_SWITCHED_OUT()
#define SONDE_FRTOS_TASK_SWITCHED_IN()                                                    \
	do {                                                                              \
		if ((const void *)pxCurrentTCB != sonde_frtos_run.tcb)                    \
			sonde_frtos_switched_in(pxCurrentTCB, (uint8_t)uxTaskGetTaskNumber(pxCurrentTCB)); \
		else                                                                      \
			sonde_frtos_run.wait = 0u;                                        \
	} while (0)
/* The kernel tick is Sonde's optional tick (sonde.h, sonde_tick()): the
 * 64-bit time stays exact across silences of any length, and a TIME_SYNC
 * after 2^27 ticks without a record keeps the next record's timestamp
 * field short. */
#define SONDE_FRTOS_TASK_INCREMENT_TICK(xTickCount) sonde_tick()
#define SONDE_FRTOS_TASK_NOTIFY_WAIT_BLOCK(uxIndexToWait) \
	SONDE_FRTOS_WAIT(SONDE_TASK_WAIT_NOTIFY, (uxIndexToWait))
#define SONDE_FRTOS_TASK_NOTIFY_WAIT(uxIndexToWait) \
	sonde_obj_op8(SONDE_OP_NOTIFY_TAKE, sonde_frtos_run.id, (uint8_t)(uxIndexToWait))
/* A notification with its action and value: besides xTaskToNotify, the
 * notify functions' parameters eAction and ulValue and their result
 * xReturn (pdFAIL: eSetValueWithoutOverwrite found one pending), in scope
 * where the kernel expands these macros (10.4 to 11.x). */
#define SONDE_FRTOS_NOTIFY_OP(isr, uxIndexToNotify)                                           \
	sonde_frtos_notify((uint8_t)uxTaskGetTaskNumber(xTaskToNotify),                        \
			   (uint8_t)((isr) | ((xReturn) != pdPASS ? SONDE_OP_F_FAILED : 0u)),     \
			   (uint32_t)(eAction), (uint32_t)(ulValue), (uint8_t)(uxIndexToNotify))
#define SONDE_FRTOS_TASK_NOTIFY(uxIndexToNotify) SONDE_FRTOS_NOTIFY_OP(0u, uxIndexToNotify)
#define SONDE_FRTOS_TASK_NOTIFY_FROM_ISR(uxIndexToNotify) SONDE_FRTOS_NOTIFY_OP(SONDE_OP_F_ISR, uxIndexToNotify)
/* vTaskNotifyGiveFromISR(): an increment. */
#define SONDE_FRTOS_TASK_NOTIFY_GIVE_FROM_ISR(uxIndexToNotify)                                      \
	sonde_obj_op8(SONDE_OP_NOTIFY_INCREMENT | SONDE_OP_F_ISR, (uint8_t)uxTaskGetTaskNumber(xTaskToNotify), \
		      (uint8_t)(uxIndexToNotify))

/* ---- queues, semaphores, mutexes (expanded in queue.c) ------------------- */

#define SONDE_FRTOS_QUEUE_CREATE(pxNewQueue)                                              \
	vQueueSetQueueNumber((pxNewQueue),                                                \
			     sonde_frtos_created((pxNewQueue),                            \
						 SONDE_FRTOS_QKIND(ucQueueGetQueueType(pxNewQueue)), \
						 (uint32_t)uxQueueGetQueueLength(pxNewQueue), NULL))
#define SONDE_FRTOS_QUEUE_DELETE(pxQueue) \
	sonde_frtos_deleted((pxQueue), (uint8_t)uxQueueGetQueueNumber(pxQueue))
#define SONDE_FRTOS_QUEUE_REGISTRY_ADD(xQueue, pcQueueName) \
	sonde_frtos_named((uint8_t)uxQueueGetQueueNumber(xQueue), (pcQueueName))
/* op on a queue, with the items in it before the operation takes effect
 * (where the kernel calls these macros). */
#define SONDE_FRTOS_QOP(op, pxQueue)                                                    \
	sonde_obj_op16((op), (uint8_t)uxQueueGetQueueNumber(pxQueue),                   \
		       sonde_frtos_u16((uint32_t)uxQueueMessagesWaitingFromISR(pxQueue)))
#define SONDE_FRTOS_QUEUE_SEND(pxQueue) SONDE_FRTOS_QOP(SONDE_OP_SEND, pxQueue)
#define SONDE_FRTOS_QUEUE_SEND_FAILED(pxQueue) SONDE_FRTOS_QOP(SONDE_OP_SEND | SONDE_OP_F_FAILED, pxQueue)
#define SONDE_FRTOS_QUEUE_SEND_FROM_ISR(pxQueue) SONDE_FRTOS_QOP(SONDE_OP_SEND | SONDE_OP_F_ISR, pxQueue)
#define SONDE_FRTOS_QUEUE_SEND_FROM_ISR_FAILED(pxQueue) \
	SONDE_FRTOS_QOP(SONDE_OP_SEND | SONDE_OP_F_ISR | SONDE_OP_F_FAILED, pxQueue)
#define SONDE_FRTOS_QUEUE_RECEIVE(pxQueue) SONDE_FRTOS_QOP(SONDE_OP_RECEIVE, pxQueue)
#define SONDE_FRTOS_QUEUE_RECEIVE_FAILED(pxQueue) SONDE_FRTOS_QOP(SONDE_OP_RECEIVE | SONDE_OP_F_FAILED, pxQueue)
#define SONDE_FRTOS_QUEUE_RECEIVE_FROM_ISR(pxQueue) SONDE_FRTOS_QOP(SONDE_OP_RECEIVE | SONDE_OP_F_ISR, pxQueue)
#define SONDE_FRTOS_QUEUE_RECEIVE_FROM_ISR_FAILED(pxQueue) \
	SONDE_FRTOS_QOP(SONDE_OP_RECEIVE | SONDE_OP_F_ISR | SONDE_OP_F_FAILED, pxQueue)
#define SONDE_FRTOS_QUEUE_PEEK(pxQueue) SONDE_FRTOS_QOP(SONDE_OP_PEEK, pxQueue)
#define SONDE_FRTOS_QUEUE_PEEK_FAILED(pxQueue) SONDE_FRTOS_QOP(SONDE_OP_PEEK | SONDE_OP_F_FAILED, pxQueue)
#define SONDE_FRTOS_QUEUE_PEEK_FROM_ISR(pxQueue) SONDE_FRTOS_QOP(SONDE_OP_PEEK | SONDE_OP_F_ISR, pxQueue)
#define SONDE_FRTOS_QUEUE_PEEK_FROM_ISR_FAILED(pxQueue) \
	SONDE_FRTOS_QOP(SONDE_OP_PEEK | SONDE_OP_F_ISR | SONDE_OP_F_FAILED, pxQueue)
#define SONDE_FRTOS_QUEUE_RESET(pxQueue, xNewQueue)                                    \
	do {                                                                           \
		if ((xNewQueue) == 0)                                                  \
			sonde_obj_op(SONDE_OP_RESET, (uint8_t)uxQueueGetQueueNumber(pxQueue)); \
	} while (0)
#define SONDE_FRTOS_BLOCKING_ON_QUEUE_RECEIVE(pxQueue) \
	SONDE_FRTOS_WAIT(SONDE_TASK_WAIT_RECV, uxQueueGetQueueNumber(pxQueue))
#define SONDE_FRTOS_BLOCKING_ON_QUEUE_SEND(pxQueue) \
	SONDE_FRTOS_WAIT(SONDE_TASK_WAIT_SEND, uxQueueGetQueueNumber(pxQueue))
#define SONDE_FRTOS_BLOCKING_ON_QUEUE_PEEK(pxQueue) \
	SONDE_FRTOS_WAIT(SONDE_TASK_WAIT_PEEK, uxQueueGetQueueNumber(pxQueue))
#define SONDE_FRTOS_TAKE_MUTEX_RECURSIVE(pxMutex) \
	sonde_obj_op(SONDE_OP_TAKE_RECURSIVE, (uint8_t)uxQueueGetQueueNumber(pxMutex))
#define SONDE_FRTOS_TAKE_MUTEX_RECURSIVE_FAILED(pxMutex) \
	sonde_obj_op(SONDE_OP_TAKE_RECURSIVE | SONDE_OP_F_FAILED, (uint8_t)uxQueueGetQueueNumber(pxMutex))
#define SONDE_FRTOS_GIVE_MUTEX_RECURSIVE(pxMutex) \
	sonde_obj_op(SONDE_OP_GIVE_RECURSIVE, (uint8_t)uxQueueGetQueueNumber(pxMutex))
#define SONDE_FRTOS_GIVE_MUTEX_RECURSIVE_FAILED(pxMutex) \
	sonde_obj_op(SONDE_OP_GIVE_RECURSIVE | SONDE_OP_F_FAILED, (uint8_t)uxQueueGetQueueNumber(pxMutex))

/* ---- software timers (expanded in timers.c) ------------------------------ */

#define SONDE_FRTOS_TIMER_CREATE(pxNewTimer)                                             \
	vTimerSetTimerNumber((pxNewTimer),                                               \
			     sonde_frtos_created((pxNewTimer), SONDE_OBJK_TIMER,         \
						 (uint32_t)xTimerGetPeriod(pxNewTimer),  \
						 pcTimerGetName(pxNewTimer)))
#define SONDE_FRTOS_TIMER_EXPIRED(pxTimer) \
	sonde_obj_op(SONDE_OP_TIMER_EXPIRED, (uint8_t)uxTimerGetTimerNumber(pxTimer))
#define SONDE_FRTOS_TIMER_COMMAND_SEND(xTimer, xMessageID, xMessageValueValue, xReturn)     \
	sonde_frtos_timer_cmd((uint8_t)uxTimerGetTimerNumber(xTimer), (int32_t)(xMessageID), \
			      (uint32_t)(xMessageValueValue), (xReturn) == pdPASS)
#define SONDE_FRTOS_TIMER_COMMAND_RECEIVED(pxTimer, xMessageID, xMessageValue)            \
	do {                                                                              \
		if ((xMessageID) == tmrCOMMAND_DELETE)                                    \
			sonde_frtos_deleted((pxTimer), (uint8_t)uxTimerGetTimerNumber(pxTimer)); \
	} while (0)

/* The timer service task waits for commands in vQueueWaitForMessageRestricted(),
 * which the kernel reports as a delay (traceTASK_DELAY_UNTIL in
 * vTaskPlaceOnEventListRestricted()).  V11's API entry and exit hooks
 * around it make that delay a wait to receive from the command queue; in
 * V10 they do not exist, and the wait stays a delay. */
#define SONDE_FRTOS_ENTER_WAIT_RESTRICTED(xQueue)                                \
	do {                                                                      \
		sonde_frtos_run.wait = 0u;                                        \
		sonde_frtos_run.cmdq = (uint8_t)uxQueueGetQueueNumber(xQueue);    \
	} while (0)
#define SONDE_FRTOS_RETURN_WAIT_RESTRICTED()                                              \
	do {                                                                               \
		if (sonde_frtos_run.wait == SONDE_TASK_DELAYED)                            \
			SONDE_FRTOS_WAIT(SONDE_TASK_WAIT_RECV, sonde_frtos_run.cmdq);      \
	} while (0)

/* ---- event groups (expanded in event_groups.c) --------------------------- */

#define SONDE_FRTOS_EVENT_GROUP_CREATE(xEventGroup) \
	vEventGroupSetNumber((xEventGroup),         \
			     sonde_frtos_created((xEventGroup), SONDE_OBJK_EVENT_GROUP, 0u, NULL))
#define SONDE_FRTOS_EVENT_GROUP_DELETE(xEventGroup) \
	sonde_frtos_deleted((xEventGroup), (uint8_t)uxEventGroupGetNumber(xEventGroup))
#define SONDE_FRTOS_EVOP(op, xEventGroup, bits) \
	sonde_obj_op32((op), (uint8_t)uxEventGroupGetNumber(xEventGroup), (uint32_t)(bits))
#define SONDE_FRTOS_EVENT_GROUP_SET_BITS(xEventGroup, uxBitsToSet) \
	SONDE_FRTOS_EVOP(SONDE_OP_SET_BITS, xEventGroup, uxBitsToSet)
#define SONDE_FRTOS_EVENT_GROUP_SET_BITS_FROM_ISR(xEventGroup, uxBitsToSet) \
	SONDE_FRTOS_EVOP(SONDE_OP_SET_BITS | SONDE_OP_F_ISR, xEventGroup, uxBitsToSet)
#define SONDE_FRTOS_EVENT_GROUP_CLEAR_BITS(xEventGroup, uxBitsToClear) \
	SONDE_FRTOS_EVOP(SONDE_OP_CLEAR_BITS, xEventGroup, uxBitsToClear)
#define SONDE_FRTOS_EVENT_GROUP_CLEAR_BITS_FROM_ISR(xEventGroup, uxBitsToClear) \
	SONDE_FRTOS_EVOP(SONDE_OP_CLEAR_BITS | SONDE_OP_F_ISR, xEventGroup, uxBitsToClear)
#define SONDE_FRTOS_EVENT_GROUP_WAIT_BITS_BLOCK(xEventGroup, uxBitsToWaitFor) \
	SONDE_FRTOS_WAIT(SONDE_TASK_WAIT_EVENT, uxEventGroupGetNumber(xEventGroup))
#define SONDE_FRTOS_EVENT_GROUP_SYNC_BLOCK(xEventGroup, uxBitsToSet, uxBitsToWaitFor) \
	SONDE_FRTOS_WAIT(SONDE_TASK_WAIT_EVENT, uxEventGroupGetNumber(xEventGroup))
#define SONDE_FRTOS_EVENT_GROUP_WAIT_BITS_END(xEventGroup, uxBitsToWaitFor, xTimeoutOccurred) \
	SONDE_FRTOS_EVOP(SONDE_OP_WAIT_BITS | ((xTimeoutOccurred) ? SONDE_OP_F_FAILED : 0u),     \
			 xEventGroup, uxBitsToWaitFor)
#define SONDE_FRTOS_EVENT_GROUP_SYNC_END(xEventGroup, uxBitsToSet, uxBitsToWaitFor, xTimeoutOccurred) \
	SONDE_FRTOS_EVOP(SONDE_OP_SYNC_BITS | ((xTimeoutOccurred) ? SONDE_OP_F_FAILED : 0u),             \
			 xEventGroup, uxBitsToWaitFor)

/* ---- stream and message buffers (expanded in stream_buffer.c) ------------ */

/* The buffer's type: 1 is a message buffer in every kernel version
 * (xIsMessageBuffer pdTRUE before 11.1, sbTYPE_MESSAGE_BUFFER since). */
#define SONDE_FRTOS_STREAM_BUFFER_CREATE(pxStreamBuffer, xType)                           \
	vStreamBufferSetStreamBufferNumber(                                               \
		(StreamBufferHandle_t)(pxStreamBuffer),                                   \
		sonde_frtos_created((pxStreamBuffer),                                     \
				    (xType) == 1 ? SONDE_OBJK_MESSAGE_BUFFER : SONDE_OBJK_STREAM_BUFFER, \
				    (uint32_t)xStreamBufferSpacesAvailable((StreamBufferHandle_t)(pxStreamBuffer)), \
				    NULL))
#define SONDE_FRTOS_STREAM_BUFFER_DELETE(xStreamBuffer) \
	sonde_frtos_deleted((xStreamBuffer), (uint8_t)uxStreamBufferGetStreamBufferNumber(xStreamBuffer))
/* op on a stream buffer, with the bytes in it after the operation. */
#define SONDE_FRTOS_SBOP(op, xStreamBuffer)                                                  \
	sonde_obj_op32((op), (uint8_t)uxStreamBufferGetStreamBufferNumber(xStreamBuffer),    \
		       (uint32_t)xStreamBufferBytesAvailable(xStreamBuffer))
#define SONDE_FRTOS_STREAM_BUFFER_RESET(xStreamBuffer) \
	sonde_obj_op(SONDE_OP_RESET, (uint8_t)uxStreamBufferGetStreamBufferNumber(xStreamBuffer))
#define SONDE_FRTOS_STREAM_BUFFER_RESET_FROM_ISR(xStreamBuffer) \
	sonde_obj_op(SONDE_OP_RESET | SONDE_OP_F_ISR, (uint8_t)uxStreamBufferGetStreamBufferNumber(xStreamBuffer))
#define SONDE_FRTOS_BLOCKING_ON_STREAM_BUFFER_SEND(xStreamBuffer) \
	SONDE_FRTOS_WAIT(SONDE_TASK_WAIT_SEND, uxStreamBufferGetStreamBufferNumber(xStreamBuffer))
#define SONDE_FRTOS_BLOCKING_ON_STREAM_BUFFER_RECEIVE(xStreamBuffer) \
	SONDE_FRTOS_WAIT(SONDE_TASK_WAIT_RECV, uxStreamBufferGetStreamBufferNumber(xStreamBuffer))
#define SONDE_FRTOS_STREAM_BUFFER_SEND(xStreamBuffer, xBytesSent) \
	SONDE_FRTOS_SBOP(SONDE_OP_SEND, xStreamBuffer)
#define SONDE_FRTOS_STREAM_BUFFER_SEND_FAILED(xStreamBuffer) \
	SONDE_FRTOS_SBOP(SONDE_OP_SEND | SONDE_OP_F_FAILED, xStreamBuffer)
#define SONDE_FRTOS_STREAM_BUFFER_SEND_FROM_ISR(xStreamBuffer, xBytesSent) \
	SONDE_FRTOS_SBOP(SONDE_OP_SEND | SONDE_OP_F_ISR | ((xBytesSent) == 0 ? SONDE_OP_F_FAILED : 0u), xStreamBuffer)
#define SONDE_FRTOS_STREAM_BUFFER_RECEIVE(xStreamBuffer, xReceivedLength) \
	SONDE_FRTOS_SBOP(SONDE_OP_RECEIVE, xStreamBuffer)
#define SONDE_FRTOS_STREAM_BUFFER_RECEIVE_FAILED(xStreamBuffer) \
	SONDE_FRTOS_SBOP(SONDE_OP_RECEIVE | SONDE_OP_F_FAILED, xStreamBuffer)
#define SONDE_FRTOS_STREAM_BUFFER_RECEIVE_FROM_ISR(xStreamBuffer, xReceivedLength) \
	SONDE_FRTOS_SBOP(SONDE_OP_RECEIVE | SONDE_OP_F_ISR | ((xReceivedLength) == 0 ? SONDE_OP_F_FAILED : 0u), \
			 xStreamBuffer)

/* ---- queue sets, deferred calls, failed creations, API spans ------------- */

/* A member queue or semaphore signals its set (prvNotifyQueueSetContainer()
 * in queue.c, where pxQueue is the member): the set, the member and the
 * items in the set before.  V11 also says when a set is made
 * (traceRETURN_xQueueCreateSet); V10 makes a set a queue of type 0, which
 * its first signal shows to be a set. */
#define SONDE_FRTOS_QUEUE_SET_SEND(pxQueueSetContainer)                                        \
	sonde_frtos_set_send((uint8_t)uxQueueGetQueueNumber(pxQueueSetContainer),              \
			     (uint8_t)uxQueueGetQueueNumber((QueueHandle_t)(uintptr_t)(pxQueue)), \
			     (uint32_t)uxQueueMessagesWaitingFromISR(pxQueueSetContainer))
#define SONDE_FRTOS_RETURN_QUEUE_CREATE_SET(pxQueue)                                   \
	do {                                                                           \
		if ((pxQueue) != NULL)                                                 \
			sonde_frtos_set_created((uint8_t)uxQueueGetQueueNumber(pxQueue)); \
	} while (0)
/* V11: a member added to / removed from a set, from the API return hooks
 * of xQueueAddToSet() / xQueueRemoveFromSet(), where their parameters
 * xQueueOrSemaphore and xQueueSet are in scope; with SONDE_FRTOS_API 1
 * the hook also ends the call's span. */
#if SONDE_FRTOS_API
#define SONDE_FRTOS_API_RETURN_IF_ON(api, r) SONDE_FRTOS_API_RETURN(api, r)
#else
#define SONDE_FRTOS_API_RETURN_IF_ON(api, r) ((void)0)
#endif
#define SONDE_FRTOS_SET_MEMBER(op, api, xReturn)                                                  \
	do {                                                                                      \
		sonde_obj_op8((uint8_t)((op) | ((xReturn) != pdPASS ? SONDE_OP_F_FAILED : 0u)),   \
			      (uint8_t)uxQueueGetQueueNumber((QueueHandle_t)(xQueueOrSemaphore)), \
			      (uint8_t)uxQueueGetQueueNumber((QueueHandle_t)(xQueueSet)));        \
		SONDE_FRTOS_API_RETURN_IF_ON(api, xReturn);                                       \
	} while (0)
#define SONDE_FRTOS_RETURN_QUEUE_ADD_TO_SET(xReturn) \
	SONDE_FRTOS_SET_MEMBER(SONDE_OP_SET_ADD, SONDE_FRTOS_API_xQueueAddToSet, xReturn)
#define SONDE_FRTOS_RETURN_QUEUE_REMOVE_FROM_SET(xReturn) \
	SONDE_FRTOS_SET_MEMBER(SONDE_OP_SET_REMOVE, SONDE_FRTOS_API_xQueueRemoveFromSet, xReturn)
/* xTimerPendFunctionCall(FromISR)(): the function, failed when the timer
 * command queue was full. */
#define SONDE_FRTOS_PEND_OP(isr, xFunctionToPend, ret) \
	sonde_frtos_pend((uint8_t)((isr) | ((ret) != pdPASS ? SONDE_OP_F_FAILED : 0u)), (uintptr_t)(xFunctionToPend))
#define SONDE_FRTOS_PEND_FUNC_CALL(xFunctionToPend, pvParameter1, ulParameter2, ret) \
	SONDE_FRTOS_PEND_OP(0u, xFunctionToPend, ret)
#define SONDE_FRTOS_PEND_FUNC_CALL_FROM_ISR(xFunctionToPend, pvParameter1, ulParameter2, ret) \
	SONDE_FRTOS_PEND_OP(SONDE_OP_F_ISR, xFunctionToPend, ret)
/* A creation that failed (no memory): the kind of object. */
#define SONDE_FRTOS_CREATE_FAILED(kind)                                                \
	do {                                                                           \
		if (sonde_rec_on_(SONDE_REC_CREATE_FAILED))                            \
			sonde_w_word(SONDE_REC_CREATE_FAILED | 1u << 8, (uint32_t)(kind)); \
	} while (0)
#define SONDE_FRTOS_QUEUE_CREATE_FAILED(ucQueueType) SONDE_FRTOS_CREATE_FAILED(SONDE_FRTOS_QKIND(ucQueueType))
#define SONDE_FRTOS_TASK_CREATE_FAILED() SONDE_FRTOS_CREATE_FAILED(SONDE_OBJK_TASK)
#define SONDE_FRTOS_TIMER_CREATE_FAILED() SONDE_FRTOS_CREATE_FAILED(SONDE_OBJK_TIMER)
#define SONDE_FRTOS_EVENT_GROUP_CREATE_FAILED() SONDE_FRTOS_CREATE_FAILED(SONDE_OBJK_EVENT_GROUP)
#define SONDE_FRTOS_STREAM_BUFFER_CREATE_FAILED(xType) \
	SONDE_FRTOS_CREATE_FAILED((xType) == 1 ? SONDE_OBJK_MESSAGE_BUFFER : SONDE_OBJK_STREAM_BUFFER)
#define SONDE_FRTOS_STREAM_BUFFER_CREATE_STATIC_FAILED(xReturn, xType) \
	do {                                                           \
		if ((xReturn) == NULL)                                 \
			SONDE_FRTOS_STREAM_BUFFER_CREATE_FAILED(xType); \
	} while (0)
/* An API call entered, and returned (with its value, or without: a
 * function that returns nothing).  Global filter only. */
#define SONDE_FRTOS_API_ENTER(api)                                   \
	do {                                                         \
		if (sonde_rec_on_(SONDE_REC_API))                    \
			sonde_w_word(SONDE_REC_API | 1u << 8, (uint32_t)(api)); \
	} while (0)
#define SONDE_FRTOS_API_RETURN(api, r) sonde_frtos_api_ret((uint8_t)(api), (uint32_t)(r))
#define SONDE_FRTOS_API_RETURN_VOID(api)                             \
	do {                                                         \
		if (sonde_rec_on_(SONDE_REC_API))                    \
			sonde_w_word(SONDE_REC_API | 1u << 8, (uint32_t)(api) | 0x80u); \
	} while (0)
/* ---- heap and tickless idle (expanded in heap_*.c, tasks.c) -------------- */

/* The allocator's block: its address (NULL: the allocation failed) and the
 * size it reports (heap_4: the block with its header; heap_3's free: 0).
 * Off unless SONDE_FRTOS_HEAP: a FreeRTOSConfig.h that chains these keeps
 * the setting. */
#if SONDE_FRTOS_HEAP
#define SONDE_FRTOS_MALLOC(pvAddress, uiSize) sonde_heap_alloc((pvAddress), (uint32_t)(uiSize))
#define SONDE_FRTOS_FREE(pvAddress, uiSize) sonde_heap_free((pvAddress), (uint32_t)(uiSize))
#else
#define SONDE_FRTOS_MALLOC(pvAddress, uiSize)
#define SONDE_FRTOS_FREE(pvAddress, uiSize)
#endif
/* Tickless idle (configUSE_TICKLESS_IDLE): the idle task sleeps, for the
 * ticks the kernel expects (xExpectedIdleTime, the local of
 * prvIdleTask() where the kernel expands the macro, 10.4 to 11.x). */
#define SONDE_FRTOS_LOW_POWER_IDLE_BEGIN() \
	sonde_obj_op32(SONDE_OP_LOW_POWER_BEGIN, sonde_frtos_run.id, (uint32_t)xExpectedIdleTime)
#define SONDE_FRTOS_LOW_POWER_IDLE_END() sonde_obj_op(SONDE_OP_LOW_POWER_END, sonde_frtos_run.id)

/* ---- the kernel's macro names -------------------------------------------- */

#ifndef traceTASK_CREATE
#define traceTASK_CREATE(pxNewTCB) SONDE_FRTOS_TASK_CREATE(pxNewTCB)
#endif
#ifndef traceTASK_DELETE
#define traceTASK_DELETE(pxTCB) SONDE_FRTOS_TASK_DELETE(pxTCB)
#endif
#ifndef traceTASK_SUSPEND
#define traceTASK_SUSPEND(pxTCB) SONDE_FRTOS_TASK_SUSPEND(pxTCB)
#endif
#ifndef traceTASK_RESUME
#define traceTASK_RESUME(pxTCB) SONDE_FRTOS_TASK_RESUME(pxTCB)
#endif
#ifndef traceTASK_RESUME_FROM_ISR
#define traceTASK_RESUME_FROM_ISR(pxTCB) SONDE_FRTOS_TASK_RESUME_FROM_ISR(pxTCB)
#endif
#ifndef traceTASK_DELAY
#define traceTASK_DELAY() SONDE_FRTOS_TASK_DELAY()
#endif
#ifndef traceTASK_DELAY_UNTIL
#define traceTASK_DELAY_UNTIL(xTimeToWake) SONDE_FRTOS_TASK_DELAY_UNTIL(xTimeToWake)
#endif
#ifndef traceTASK_PRIORITY_SET
#define traceTASK_PRIORITY_SET(pxTask, uxNewPriority) SONDE_FRTOS_TASK_PRIORITY_SET(pxTask, uxNewPriority)
#endif
#ifndef traceTASK_PRIORITY_INHERIT
#define traceTASK_PRIORITY_INHERIT(pxTCBOfMutexHolder, uxInheritedPriority) \
	SONDE_FRTOS_TASK_PRIORITY_INHERIT(pxTCBOfMutexHolder, uxInheritedPriority)
#endif
#ifndef traceTASK_PRIORITY_DISINHERIT
#define traceTASK_PRIORITY_DISINHERIT(pxTCBOfMutexHolder, uxOriginalPriority) \
	SONDE_FRTOS_TASK_PRIORITY_DISINHERIT(pxTCBOfMutexHolder, uxOriginalPriority)
#endif
#ifndef traceMOVED_TASK_TO_READY_STATE
#define traceMOVED_TASK_TO_READY_STATE(pxTCB) SONDE_FRTOS_MOVED_TASK_TO_READY_STATE(pxTCB)
#endif
#ifndef traceTASK_SWITCHED_OUT
#define traceTASK_SWITCHED_OUT() SONDE_FRTOS_TASK_SWITCHED_OUT()
#endif
#ifndef traceTASK_SWITCHED_IN
#define traceTASK_SWITCHED_IN() SONDE_FRTOS_TASK_SWITCHED_IN()
#endif
#ifndef traceTASK_INCREMENT_TICK
#define traceTASK_INCREMENT_TICK(xTickCount) SONDE_FRTOS_TASK_INCREMENT_TICK(xTickCount)
#endif
#ifndef traceTASK_NOTIFY_TAKE_BLOCK
#define traceTASK_NOTIFY_TAKE_BLOCK(uxIndexToWait) SONDE_FRTOS_TASK_NOTIFY_WAIT_BLOCK(uxIndexToWait)
#endif
#ifndef traceTASK_NOTIFY_WAIT_BLOCK
#define traceTASK_NOTIFY_WAIT_BLOCK(uxIndexToWait) SONDE_FRTOS_TASK_NOTIFY_WAIT_BLOCK(uxIndexToWait)
#endif
#ifndef traceTASK_NOTIFY_TAKE
#define traceTASK_NOTIFY_TAKE(uxIndexToWait) SONDE_FRTOS_TASK_NOTIFY_WAIT(uxIndexToWait)
#endif
#ifndef traceTASK_NOTIFY_WAIT
#define traceTASK_NOTIFY_WAIT(uxIndexToWait) SONDE_FRTOS_TASK_NOTIFY_WAIT(uxIndexToWait)
#endif
#ifndef traceTASK_NOTIFY
#define traceTASK_NOTIFY(uxIndexToNotify) SONDE_FRTOS_TASK_NOTIFY(uxIndexToNotify)
#endif
#ifndef traceTASK_NOTIFY_FROM_ISR
#define traceTASK_NOTIFY_FROM_ISR(uxIndexToNotify) SONDE_FRTOS_TASK_NOTIFY_FROM_ISR(uxIndexToNotify)
#endif
#ifndef traceTASK_NOTIFY_GIVE_FROM_ISR
#define traceTASK_NOTIFY_GIVE_FROM_ISR(uxIndexToNotify) SONDE_FRTOS_TASK_NOTIFY_GIVE_FROM_ISR(uxIndexToNotify)
#endif
/* traceISR_ENTER/_EXIT/_EXIT_TO_SCHEDULER are left to the kernel's empty
 * defaults: ports call the exits from portYIELD_FROM_ISR() in every
 * interrupt that yields but the entry only in their tick handler, and name
 * no interrupt, so they do not pair.  Trace interrupts with
 * sonde_isr_enter()/sonde_isr_exit() around the handler (the tick's too),
 * as with any Sonde firmware. */

#ifndef traceQUEUE_CREATE
#define traceQUEUE_CREATE(pxNewQueue) SONDE_FRTOS_QUEUE_CREATE(pxNewQueue)
#endif
#ifndef traceQUEUE_DELETE
#define traceQUEUE_DELETE(pxQueue) SONDE_FRTOS_QUEUE_DELETE(pxQueue)
#endif
#ifndef traceQUEUE_REGISTRY_ADD
#define traceQUEUE_REGISTRY_ADD(xQueue, pcQueueName) SONDE_FRTOS_QUEUE_REGISTRY_ADD(xQueue, pcQueueName)
#endif
#ifndef traceQUEUE_SEND
#define traceQUEUE_SEND(pxQueue) SONDE_FRTOS_QUEUE_SEND(pxQueue)
#endif
#ifndef traceQUEUE_SEND_FAILED
#define traceQUEUE_SEND_FAILED(pxQueue) SONDE_FRTOS_QUEUE_SEND_FAILED(pxQueue)
#endif
#ifndef traceQUEUE_SEND_FROM_ISR
#define traceQUEUE_SEND_FROM_ISR(pxQueue) SONDE_FRTOS_QUEUE_SEND_FROM_ISR(pxQueue)
#endif
#ifndef traceQUEUE_SEND_FROM_ISR_FAILED
#define traceQUEUE_SEND_FROM_ISR_FAILED(pxQueue) SONDE_FRTOS_QUEUE_SEND_FROM_ISR_FAILED(pxQueue)
#endif
#ifndef traceQUEUE_RECEIVE
#define traceQUEUE_RECEIVE(pxQueue) SONDE_FRTOS_QUEUE_RECEIVE(pxQueue)
#endif
#ifndef traceQUEUE_RECEIVE_FAILED
#define traceQUEUE_RECEIVE_FAILED(pxQueue) SONDE_FRTOS_QUEUE_RECEIVE_FAILED(pxQueue)
#endif
#ifndef traceQUEUE_RECEIVE_FROM_ISR
#define traceQUEUE_RECEIVE_FROM_ISR(pxQueue) SONDE_FRTOS_QUEUE_RECEIVE_FROM_ISR(pxQueue)
#endif
#ifndef traceQUEUE_RECEIVE_FROM_ISR_FAILED
#define traceQUEUE_RECEIVE_FROM_ISR_FAILED(pxQueue) SONDE_FRTOS_QUEUE_RECEIVE_FROM_ISR_FAILED(pxQueue)
#endif
#ifndef traceQUEUE_PEEK
#define traceQUEUE_PEEK(pxQueue) SONDE_FRTOS_QUEUE_PEEK(pxQueue)
#endif
#ifndef traceQUEUE_PEEK_FAILED
#define traceQUEUE_PEEK_FAILED(pxQueue) SONDE_FRTOS_QUEUE_PEEK_FAILED(pxQueue)
#endif
#ifndef traceQUEUE_PEEK_FROM_ISR
#define traceQUEUE_PEEK_FROM_ISR(pxQueue) SONDE_FRTOS_QUEUE_PEEK_FROM_ISR(pxQueue)
#endif
#ifndef traceQUEUE_PEEK_FROM_ISR_FAILED
#define traceQUEUE_PEEK_FROM_ISR_FAILED(pxQueue) SONDE_FRTOS_QUEUE_PEEK_FROM_ISR_FAILED(pxQueue)
#endif
#ifndef traceQUEUE_RESET
#define traceQUEUE_RESET(pxQueue, xNewQueue) SONDE_FRTOS_QUEUE_RESET(pxQueue, xNewQueue)
#endif
#ifndef traceBLOCKING_ON_QUEUE_RECEIVE
#define traceBLOCKING_ON_QUEUE_RECEIVE(pxQueue) SONDE_FRTOS_BLOCKING_ON_QUEUE_RECEIVE(pxQueue)
#endif
#ifndef traceBLOCKING_ON_QUEUE_SEND
#define traceBLOCKING_ON_QUEUE_SEND(pxQueue) SONDE_FRTOS_BLOCKING_ON_QUEUE_SEND(pxQueue)
#endif
#ifndef traceBLOCKING_ON_QUEUE_PEEK
#define traceBLOCKING_ON_QUEUE_PEEK(pxQueue) SONDE_FRTOS_BLOCKING_ON_QUEUE_PEEK(pxQueue)
#endif
#ifndef traceTAKE_MUTEX_RECURSIVE
#define traceTAKE_MUTEX_RECURSIVE(pxMutex) SONDE_FRTOS_TAKE_MUTEX_RECURSIVE(pxMutex)
#endif
#ifndef traceTAKE_MUTEX_RECURSIVE_FAILED
#define traceTAKE_MUTEX_RECURSIVE_FAILED(pxMutex) SONDE_FRTOS_TAKE_MUTEX_RECURSIVE_FAILED(pxMutex)
#endif
#ifndef traceGIVE_MUTEX_RECURSIVE
#define traceGIVE_MUTEX_RECURSIVE(pxMutex) SONDE_FRTOS_GIVE_MUTEX_RECURSIVE(pxMutex)
#endif
#ifndef traceGIVE_MUTEX_RECURSIVE_FAILED
#define traceGIVE_MUTEX_RECURSIVE_FAILED(pxMutex) SONDE_FRTOS_GIVE_MUTEX_RECURSIVE_FAILED(pxMutex)
#endif

#ifndef traceTIMER_CREATE
#define traceTIMER_CREATE(pxNewTimer) SONDE_FRTOS_TIMER_CREATE(pxNewTimer)
#endif
#ifndef traceTIMER_EXPIRED
#define traceTIMER_EXPIRED(pxTimer) SONDE_FRTOS_TIMER_EXPIRED(pxTimer)
#endif
#ifndef traceTIMER_COMMAND_SEND
#define traceTIMER_COMMAND_SEND(xTimer, xMessageID, xMessageValueValue, xReturn) \
	SONDE_FRTOS_TIMER_COMMAND_SEND(xTimer, xMessageID, xMessageValueValue, xReturn)
#endif
#ifndef traceTIMER_COMMAND_RECEIVED
#define traceTIMER_COMMAND_RECEIVED(pxTimer, xMessageID, xMessageValue) \
	SONDE_FRTOS_TIMER_COMMAND_RECEIVED(pxTimer, xMessageID, xMessageValue)
#endif

#ifndef traceENTER_vQueueWaitForMessageRestricted
#define traceENTER_vQueueWaitForMessageRestricted(xQueue, xTicksToWait, xWaitIndefinitely) \
	SONDE_FRTOS_ENTER_WAIT_RESTRICTED(xQueue)
#endif
#ifndef traceRETURN_vQueueWaitForMessageRestricted
#define traceRETURN_vQueueWaitForMessageRestricted() SONDE_FRTOS_RETURN_WAIT_RESTRICTED()
#endif

#ifndef traceEVENT_GROUP_CREATE
#define traceEVENT_GROUP_CREATE(xEventGroup) SONDE_FRTOS_EVENT_GROUP_CREATE(xEventGroup)
#endif
#ifndef traceEVENT_GROUP_DELETE
#define traceEVENT_GROUP_DELETE(xEventGroup) SONDE_FRTOS_EVENT_GROUP_DELETE(xEventGroup)
#endif
#ifndef traceEVENT_GROUP_SET_BITS
#define traceEVENT_GROUP_SET_BITS(xEventGroup, uxBitsToSet) SONDE_FRTOS_EVENT_GROUP_SET_BITS(xEventGroup, uxBitsToSet)
#endif
#ifndef traceEVENT_GROUP_SET_BITS_FROM_ISR
#define traceEVENT_GROUP_SET_BITS_FROM_ISR(xEventGroup, uxBitsToSet) \
	SONDE_FRTOS_EVENT_GROUP_SET_BITS_FROM_ISR(xEventGroup, uxBitsToSet)
#endif
#ifndef traceEVENT_GROUP_CLEAR_BITS
#define traceEVENT_GROUP_CLEAR_BITS(xEventGroup, uxBitsToClear) \
	SONDE_FRTOS_EVENT_GROUP_CLEAR_BITS(xEventGroup, uxBitsToClear)
#endif
#ifndef traceEVENT_GROUP_CLEAR_BITS_FROM_ISR
#define traceEVENT_GROUP_CLEAR_BITS_FROM_ISR(xEventGroup, uxBitsToClear) \
	SONDE_FRTOS_EVENT_GROUP_CLEAR_BITS_FROM_ISR(xEventGroup, uxBitsToClear)
#endif
#ifndef traceEVENT_GROUP_WAIT_BITS_BLOCK
#define traceEVENT_GROUP_WAIT_BITS_BLOCK(xEventGroup, uxBitsToWaitFor) \
	SONDE_FRTOS_EVENT_GROUP_WAIT_BITS_BLOCK(xEventGroup, uxBitsToWaitFor)
#endif
#ifndef traceEVENT_GROUP_SYNC_BLOCK
#define traceEVENT_GROUP_SYNC_BLOCK(xEventGroup, uxBitsToSet, uxBitsToWaitFor) \
	SONDE_FRTOS_EVENT_GROUP_SYNC_BLOCK(xEventGroup, uxBitsToSet, uxBitsToWaitFor)
#endif
#ifndef traceEVENT_GROUP_WAIT_BITS_END
#define traceEVENT_GROUP_WAIT_BITS_END(xEventGroup, uxBitsToWaitFor, xTimeoutOccurred) \
	SONDE_FRTOS_EVENT_GROUP_WAIT_BITS_END(xEventGroup, uxBitsToWaitFor, xTimeoutOccurred)
#endif
#ifndef traceEVENT_GROUP_SYNC_END
#define traceEVENT_GROUP_SYNC_END(xEventGroup, uxBitsToSet, uxBitsToWaitFor, xTimeoutOccurred) \
	SONDE_FRTOS_EVENT_GROUP_SYNC_END(xEventGroup, uxBitsToSet, uxBitsToWaitFor, xTimeoutOccurred)
#endif

#ifndef traceSTREAM_BUFFER_CREATE
#define traceSTREAM_BUFFER_CREATE(pxStreamBuffer, xType) SONDE_FRTOS_STREAM_BUFFER_CREATE(pxStreamBuffer, xType)
#endif
#ifndef traceSTREAM_BUFFER_DELETE
#define traceSTREAM_BUFFER_DELETE(xStreamBuffer) SONDE_FRTOS_STREAM_BUFFER_DELETE(xStreamBuffer)
#endif
#ifndef traceSTREAM_BUFFER_RESET
#define traceSTREAM_BUFFER_RESET(xStreamBuffer) SONDE_FRTOS_STREAM_BUFFER_RESET(xStreamBuffer)
#endif
#ifndef traceSTREAM_BUFFER_RESET_FROM_ISR
#define traceSTREAM_BUFFER_RESET_FROM_ISR(xStreamBuffer) SONDE_FRTOS_STREAM_BUFFER_RESET_FROM_ISR(xStreamBuffer)
#endif
#ifndef traceBLOCKING_ON_STREAM_BUFFER_SEND
#define traceBLOCKING_ON_STREAM_BUFFER_SEND(xStreamBuffer) SONDE_FRTOS_BLOCKING_ON_STREAM_BUFFER_SEND(xStreamBuffer)
#endif
#ifndef traceBLOCKING_ON_STREAM_BUFFER_RECEIVE
#define traceBLOCKING_ON_STREAM_BUFFER_RECEIVE(xStreamBuffer) \
	SONDE_FRTOS_BLOCKING_ON_STREAM_BUFFER_RECEIVE(xStreamBuffer)
#endif
#ifndef traceSTREAM_BUFFER_SEND
#define traceSTREAM_BUFFER_SEND(xStreamBuffer, xBytesSent) SONDE_FRTOS_STREAM_BUFFER_SEND(xStreamBuffer, xBytesSent)
#endif
#ifndef traceSTREAM_BUFFER_SEND_FAILED
#define traceSTREAM_BUFFER_SEND_FAILED(xStreamBuffer) SONDE_FRTOS_STREAM_BUFFER_SEND_FAILED(xStreamBuffer)
#endif
#ifndef traceSTREAM_BUFFER_SEND_FROM_ISR
#define traceSTREAM_BUFFER_SEND_FROM_ISR(xStreamBuffer, xBytesSent) \
	SONDE_FRTOS_STREAM_BUFFER_SEND_FROM_ISR(xStreamBuffer, xBytesSent)
#endif
#ifndef traceSTREAM_BUFFER_RECEIVE
#define traceSTREAM_BUFFER_RECEIVE(xStreamBuffer, xReceivedLength) \
	SONDE_FRTOS_STREAM_BUFFER_RECEIVE(xStreamBuffer, xReceivedLength)
#endif
#ifndef traceSTREAM_BUFFER_RECEIVE_FAILED
#define traceSTREAM_BUFFER_RECEIVE_FAILED(xStreamBuffer) SONDE_FRTOS_STREAM_BUFFER_RECEIVE_FAILED(xStreamBuffer)
#endif
#ifndef traceSTREAM_BUFFER_RECEIVE_FROM_ISR
#define traceSTREAM_BUFFER_RECEIVE_FROM_ISR(xStreamBuffer, xReceivedLength) \
	SONDE_FRTOS_STREAM_BUFFER_RECEIVE_FROM_ISR(xStreamBuffer, xReceivedLength)
#endif

#if SONDE_FRTOS_HEAP
#ifndef traceMALLOC
#define traceMALLOC(pvAddress, uiSize) SONDE_FRTOS_MALLOC(pvAddress, uiSize)
#endif
#ifndef traceFREE
#define traceFREE(pvAddress, uiSize) SONDE_FRTOS_FREE(pvAddress, uiSize)
#endif
#endif
#ifndef traceLOW_POWER_IDLE_BEGIN
#define traceLOW_POWER_IDLE_BEGIN() SONDE_FRTOS_LOW_POWER_IDLE_BEGIN()
#endif
#ifndef traceLOW_POWER_IDLE_END
#define traceLOW_POWER_IDLE_END() SONDE_FRTOS_LOW_POWER_IDLE_END()
#endif
#ifndef traceQUEUE_SET_SEND
#define traceQUEUE_SET_SEND(pxQueueSetContainer) SONDE_FRTOS_QUEUE_SET_SEND(pxQueueSetContainer)
#endif
#ifndef traceRETURN_xQueueCreateSet
#define traceRETURN_xQueueCreateSet(pxQueue) SONDE_FRTOS_RETURN_QUEUE_CREATE_SET(pxQueue)
#endif
#ifndef traceRETURN_xQueueAddToSet
#define traceRETURN_xQueueAddToSet(xReturn) SONDE_FRTOS_RETURN_QUEUE_ADD_TO_SET(xReturn)
#endif
#ifndef traceRETURN_xQueueRemoveFromSet
#define traceRETURN_xQueueRemoveFromSet(xReturn) SONDE_FRTOS_RETURN_QUEUE_REMOVE_FROM_SET(xReturn)
#endif
#ifndef tracePEND_FUNC_CALL
#define tracePEND_FUNC_CALL(xFunctionToPend, pvParameter1, ulParameter2, ret) \
	SONDE_FRTOS_PEND_FUNC_CALL(xFunctionToPend, pvParameter1, ulParameter2, ret)
#endif
#ifndef tracePEND_FUNC_CALL_FROM_ISR
#define tracePEND_FUNC_CALL_FROM_ISR(xFunctionToPend, pvParameter1, ulParameter2, ret) \
	SONDE_FRTOS_PEND_FUNC_CALL_FROM_ISR(xFunctionToPend, pvParameter1, ulParameter2, ret)
#endif
/* traceCREATE_MUTEX_FAILED and traceCREATE_COUNTING_SEMAPHORE_FAILED come
 * after traceQUEUE_CREATE_FAILED of the same creation: left alone, so that
 * it is said once.  The kernel (10.6, 11.1) never calls
 * traceTASK_CREATE_FAILED nor traceTIMER_CREATE_FAILED; they are mapped for
 * kernels that do. */
#ifndef traceQUEUE_CREATE_FAILED
#define traceQUEUE_CREATE_FAILED(ucQueueType) SONDE_FRTOS_QUEUE_CREATE_FAILED(ucQueueType)
#endif
#ifndef traceTASK_CREATE_FAILED
#define traceTASK_CREATE_FAILED() SONDE_FRTOS_TASK_CREATE_FAILED()
#endif
#ifndef traceTIMER_CREATE_FAILED
#define traceTIMER_CREATE_FAILED() SONDE_FRTOS_TIMER_CREATE_FAILED()
#endif
#ifndef traceEVENT_GROUP_CREATE_FAILED
#define traceEVENT_GROUP_CREATE_FAILED() SONDE_FRTOS_EVENT_GROUP_CREATE_FAILED()
#endif
#ifndef traceSTREAM_BUFFER_CREATE_FAILED
#define traceSTREAM_BUFFER_CREATE_FAILED(xType) SONDE_FRTOS_STREAM_BUFFER_CREATE_FAILED(xType)
#endif
#ifndef traceSTREAM_BUFFER_CREATE_STATIC_FAILED
#define traceSTREAM_BUFFER_CREATE_STATIC_FAILED(xReturn, xType) \
	SONDE_FRTOS_STREAM_BUFFER_CREATE_STATIC_FAILED(xReturn, xType)
#endif
#if SONDE_FRTOS_API
#include "sonde_freertos_api.h"
#endif

#else /* !SONDE_ENABLED: the kernel's empty defaults stay; Sonde's macros,
       * which a FreeRTOSConfig.h may call from its own, do nothing */

#define SONDE_FRTOS_TASK_CREATE(pxNewTCB)
#define SONDE_FRTOS_TASK_DELETE(pxTCB)
#define SONDE_FRTOS_TASK_SUSPEND(pxTCB)
#define SONDE_FRTOS_TASK_RESUME(pxTCB)
#define SONDE_FRTOS_TASK_RESUME_FROM_ISR(pxTCB)
#define SONDE_FRTOS_TASK_DELAY()
#define SONDE_FRTOS_TASK_DELAY_UNTIL(xTimeToWake)
#define SONDE_FRTOS_TASK_PRIORITY_SET(pxTask, uxNewPriority)
#define SONDE_FRTOS_TASK_PRIORITY_INHERIT(pxTCBOfMutexHolder, uxInheritedPriority)
#define SONDE_FRTOS_TASK_PRIORITY_DISINHERIT(pxTCBOfMutexHolder, uxOriginalPriority)
#define SONDE_FRTOS_MOVED_TASK_TO_READY_STATE(pxTCB)
#define SONDE_FRTOS_TASK_SWITCHED_OUT()
#define SONDE_FRTOS_TASK_SWITCHED_IN()
#define SONDE_FRTOS_TASK_INCREMENT_TICK(xTickCount)
#define SONDE_FRTOS_TASK_NOTIFY_WAIT_BLOCK(uxIndexToWait)
#define SONDE_FRTOS_TASK_NOTIFY_WAIT(uxIndexToWait)
#define SONDE_FRTOS_TASK_NOTIFY(uxIndexToNotify)
#define SONDE_FRTOS_TASK_NOTIFY_FROM_ISR(uxIndexToNotify)
#define SONDE_FRTOS_TASK_NOTIFY_GIVE_FROM_ISR(uxIndexToNotify)
#define SONDE_FRTOS_ENTER_WAIT_RESTRICTED(xQueue)
#define SONDE_FRTOS_RETURN_WAIT_RESTRICTED()
#define SONDE_FRTOS_QUEUE_CREATE(pxNewQueue)
#define SONDE_FRTOS_QUEUE_DELETE(pxQueue)
#define SONDE_FRTOS_QUEUE_REGISTRY_ADD(xQueue, pcQueueName)
#define SONDE_FRTOS_QUEUE_SEND(pxQueue)
#define SONDE_FRTOS_QUEUE_SEND_FAILED(pxQueue)
#define SONDE_FRTOS_QUEUE_SEND_FROM_ISR(pxQueue)
#define SONDE_FRTOS_QUEUE_SEND_FROM_ISR_FAILED(pxQueue)
#define SONDE_FRTOS_QUEUE_RECEIVE(pxQueue)
#define SONDE_FRTOS_QUEUE_RECEIVE_FAILED(pxQueue)
#define SONDE_FRTOS_QUEUE_RECEIVE_FROM_ISR(pxQueue)
#define SONDE_FRTOS_QUEUE_RECEIVE_FROM_ISR_FAILED(pxQueue)
#define SONDE_FRTOS_QUEUE_PEEK(pxQueue)
#define SONDE_FRTOS_QUEUE_PEEK_FAILED(pxQueue)
#define SONDE_FRTOS_QUEUE_PEEK_FROM_ISR(pxQueue)
#define SONDE_FRTOS_QUEUE_PEEK_FROM_ISR_FAILED(pxQueue)
#define SONDE_FRTOS_QUEUE_RESET(pxQueue, xNewQueue)
#define SONDE_FRTOS_BLOCKING_ON_QUEUE_RECEIVE(pxQueue)
#define SONDE_FRTOS_BLOCKING_ON_QUEUE_SEND(pxQueue)
#define SONDE_FRTOS_BLOCKING_ON_QUEUE_PEEK(pxQueue)
#define SONDE_FRTOS_TAKE_MUTEX_RECURSIVE(pxMutex)
#define SONDE_FRTOS_TAKE_MUTEX_RECURSIVE_FAILED(pxMutex)
#define SONDE_FRTOS_GIVE_MUTEX_RECURSIVE(pxMutex)
#define SONDE_FRTOS_GIVE_MUTEX_RECURSIVE_FAILED(pxMutex)
#define SONDE_FRTOS_TIMER_CREATE(pxNewTimer)
#define SONDE_FRTOS_TIMER_EXPIRED(pxTimer)
#define SONDE_FRTOS_TIMER_COMMAND_SEND(xTimer, xMessageID, xMessageValueValue, xReturn)
#define SONDE_FRTOS_TIMER_COMMAND_RECEIVED(pxTimer, xMessageID, xMessageValue)
#define SONDE_FRTOS_EVENT_GROUP_CREATE(xEventGroup)
#define SONDE_FRTOS_EVENT_GROUP_DELETE(xEventGroup)
#define SONDE_FRTOS_EVENT_GROUP_SET_BITS(xEventGroup, uxBitsToSet)
#define SONDE_FRTOS_EVENT_GROUP_SET_BITS_FROM_ISR(xEventGroup, uxBitsToSet)
#define SONDE_FRTOS_EVENT_GROUP_CLEAR_BITS(xEventGroup, uxBitsToClear)
#define SONDE_FRTOS_EVENT_GROUP_CLEAR_BITS_FROM_ISR(xEventGroup, uxBitsToClear)
#define SONDE_FRTOS_EVENT_GROUP_WAIT_BITS_BLOCK(xEventGroup, uxBitsToWaitFor)
#define SONDE_FRTOS_EVENT_GROUP_SYNC_BLOCK(xEventGroup, uxBitsToSet, uxBitsToWaitFor)
#define SONDE_FRTOS_EVENT_GROUP_WAIT_BITS_END(xEventGroup, uxBitsToWaitFor, xTimeoutOccurred) ((void)(xTimeoutOccurred))
#define SONDE_FRTOS_EVENT_GROUP_SYNC_END(xEventGroup, uxBitsToSet, uxBitsToWaitFor, xTimeoutOccurred) ((void)(xTimeoutOccurred))
#define SONDE_FRTOS_STREAM_BUFFER_CREATE(pxStreamBuffer, xType)
#define SONDE_FRTOS_STREAM_BUFFER_DELETE(xStreamBuffer)
#define SONDE_FRTOS_STREAM_BUFFER_RESET(xStreamBuffer)
#define SONDE_FRTOS_STREAM_BUFFER_RESET_FROM_ISR(xStreamBuffer)
#define SONDE_FRTOS_BLOCKING_ON_STREAM_BUFFER_SEND(xStreamBuffer)
#define SONDE_FRTOS_BLOCKING_ON_STREAM_BUFFER_RECEIVE(xStreamBuffer)
#define SONDE_FRTOS_STREAM_BUFFER_SEND(xStreamBuffer, xBytesSent)
#define SONDE_FRTOS_STREAM_BUFFER_SEND_FAILED(xStreamBuffer)
#define SONDE_FRTOS_STREAM_BUFFER_SEND_FROM_ISR(xStreamBuffer, xBytesSent)
#define SONDE_FRTOS_STREAM_BUFFER_RECEIVE(xStreamBuffer, xReceivedLength)
#define SONDE_FRTOS_STREAM_BUFFER_RECEIVE_FAILED(xStreamBuffer)
#define SONDE_FRTOS_STREAM_BUFFER_RECEIVE_FROM_ISR(xStreamBuffer, xReceivedLength)
#define SONDE_FRTOS_QUEUE_SET_SEND(pxQueueSetContainer)
#define SONDE_FRTOS_RETURN_QUEUE_CREATE_SET(pxQueue)
#define SONDE_FRTOS_RETURN_QUEUE_ADD_TO_SET(xReturn)
#define SONDE_FRTOS_RETURN_QUEUE_REMOVE_FROM_SET(xReturn)
#define SONDE_FRTOS_PEND_FUNC_CALL(xFunctionToPend, pvParameter1, ulParameter2, ret)
#define SONDE_FRTOS_PEND_FUNC_CALL_FROM_ISR(xFunctionToPend, pvParameter1, ulParameter2, ret)
#define SONDE_FRTOS_CREATE_FAILED(kind)
#define SONDE_FRTOS_QUEUE_CREATE_FAILED(ucQueueType)
#define SONDE_FRTOS_TASK_CREATE_FAILED()
#define SONDE_FRTOS_TIMER_CREATE_FAILED()
#define SONDE_FRTOS_EVENT_GROUP_CREATE_FAILED()
#define SONDE_FRTOS_STREAM_BUFFER_CREATE_FAILED(xType)
#define SONDE_FRTOS_STREAM_BUFFER_CREATE_STATIC_FAILED(xReturn, xType)
#define SONDE_FRTOS_API_ENTER(api)
#define SONDE_FRTOS_API_RETURN(api, r)
#define SONDE_FRTOS_API_RETURN_VOID(api)
#define SONDE_FRTOS_MALLOC(pvAddress, uiSize)
#define SONDE_FRTOS_FREE(pvAddress, uiSize)
#define SONDE_FRTOS_LOW_POWER_IDLE_BEGIN()
#define SONDE_FRTOS_LOW_POWER_IDLE_END()

#endif /* SONDE_ENABLED */

#ifdef __cplusplus
}
#endif

#endif /* not an assembler file */

#endif /* SONDE_FREERTOS_H */
