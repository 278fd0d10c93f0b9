/*
 * sonde_frtos_api.h -- the FreeRTOS API calls the API record (0x1C,
 * docs/protocol.md section 4.1) names, one id each: the one table the
 * target (target/rtos/freertos/sonde_freertos_api.h, which wires the
 * kernel's traceENTER_/traceRETURN_ hooks of V11 to it) and the host (which
 * names the spans) share.
 *
 * X(id, name, ret): id 1..127 (bit 7 of the record's first byte says
 * "returned"), the kernel function, ret 1 when it returns a value the
 * record carries (BaseType_t, UBaseType_t, uint32_t, EventBits_t, size_t),
 * 0 when it returns nothing.  Ids are part of the wire format: append,
 * never renumber.
 */
#ifndef SONDE_FRTOS_API_H
#define SONDE_FRTOS_API_H

#define SONDE_FRTOS_APIS(X)                                   \
	X(1, xQueueGenericSend, 1)                            \
	X(2, xQueueGenericSendFromISR, 1)                     \
	X(3, xQueueGiveFromISR, 1)                            \
	X(4, xQueueReceive, 1)                                \
	X(5, xQueueReceiveFromISR, 1)                         \
	X(6, xQueuePeek, 1)                                   \
	X(7, xQueueSemaphoreTake, 1)                          \
	X(8, xQueueTakeMutexRecursive, 1)                     \
	X(9, xQueueGiveMutexRecursive, 1)                     \
	X(10, xQueueSelectFromSet, 0)                         \
	X(11, xQueueAddToSet, 1)                              \
	X(12, xQueueRemoveFromSet, 1)                         \
	X(13, vTaskDelay, 0)                                  \
	X(14, xTaskDelayUntil, 1)                             \
	X(15, xTaskGenericNotify, 1)                          \
	X(16, xTaskGenericNotifyFromISR, 1)                   \
	X(17, vTaskGenericNotifyGiveFromISR, 0)               \
	X(18, ulTaskGenericNotifyTake, 1)                     \
	X(19, xTaskGenericNotifyWait, 1)                      \
	X(20, xEventGroupSetBits, 1)                          \
	X(21, xEventGroupWaitBits, 1)                         \
	X(22, xEventGroupClearBits, 1)                        \
	X(23, xEventGroupSync, 1)                             \
	X(24, xTimerGenericCommandFromTask, 1)                \
	X(25, xTimerGenericCommandFromISR, 1)                 \
	X(26, xTimerPendFunctionCall, 1)                      \
	X(27, xTimerPendFunctionCallFromISR, 1)               \
	X(28, xStreamBufferSend, 1)                           \
	X(29, xStreamBufferReceive, 1)                        \
	X(30, vTaskSuspend, 0)                                \
	X(31, vTaskResume, 0)                                 \
	X(32, xTaskResumeFromISR, 1)                          \
	X(33, vTaskDelete, 0)                                 \
	X(34, vTaskPrioritySet, 0)                            \
	X(35, xTaskCreate, 1)

/* SONDE_FRTOS_API_<name>: the id of each. */
enum sonde_frtos_api_id {
#define SONDE_FRTOS_API_ENUM_(id, name, ret) SONDE_FRTOS_API_##name = id,
	SONDE_FRTOS_APIS(SONDE_FRTOS_API_ENUM_)
#undef SONDE_FRTOS_API_ENUM_
	SONDE_FRTOS_API_LIMIT = 128
};

/* The API record's first byte: the id, | this when the call returned. */
#define SONDE_FRTOS_API_RETURNED 0x80u

#endif /* SONDE_FRTOS_API_H */
