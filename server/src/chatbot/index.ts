export { chatbotDone, registerChatbot } from "./listeners.js";
export { DEFAULT_RATING_MESSAGE, RATING_SCALE, ratingQuestion } from "./rating-question.js";
